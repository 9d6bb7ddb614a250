// The in-page half of the test wallet: an EIP-1193 provider on window.ethereum, also announced
// through EIP-6963, whose every request goes to the Node test process (page.exposeFunction).
// This function is serialized into the page by addInitScript: it must not close over anything.

export interface ProviderInfo {
  bridge: string;
  name: string;
  rdns: string;
}

export function installInjectedProvider({ bridge, name, rdns }: ProviderInfo): void {
  type Listener = (payload: unknown) => void;
  type Reply = { result?: unknown; error?: { code: number; message: string }; events?: [string, unknown][] };
  const listeners = new Map<string, Set<Listener>>();
  const call = (window as unknown as Record<string, (args: unknown) => Promise<Reply>>)[bridge];
  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((fn) => fn(payload));
  const provider = {
    isTestWallet: true,
    async request({ method, params }: { method: string; params?: unknown[] }) {
      const reply = await call!({ method, params: params ?? [] });
      for (const [event, payload] of reply.events ?? []) setTimeout(() => emit(event, payload), 0);
      if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
      return reply.result;
    },
    on(event: string, fn: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
      return provider;
    },
    removeListener(event: string, fn: Listener) {
      listeners.get(event)?.delete(fn);
      return provider;
    },
  };
  Object.defineProperty(window, 'ethereum', { value: provider, configurable: true });
  const icon =
    'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 ' +
    '8"%3E%3Crect width="8" height="8" fill="%230b5cad"/%3E%3C/svg%3E';
  const detail = Object.freeze({ info: Object.freeze({ uuid: crypto.randomUUID(), name, icon, rdns }), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
}
