'use client';
// Everything the dashboard's client components share: the runtime configuration, wagmi (the
// wallet), TanStack Query (requests), and the session the server layout already knew.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { WagmiProvider } from 'wagmi';
import { RuntimeConfigProvider } from '@/lib/web/runtime-config-context';
import type { RuntimeConfig } from '@/lib/web/session';
import { SESSION_KEY, type Session } from '@/lib/web/use-session';
import { createDashboardWagmiConfig } from '@/lib/web/wagmi-config';

interface Props {
  config: RuntimeConfig;
  /** What the server read from the cookie; undefined when it could not tell. */
  session: Session | null | undefined;
  children: ReactNode;
}

export function DashboardProviders({ config, session, children }: Props) {
  const [queryClient] = useState(() => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
    if (session !== undefined) client.setQueryData(SESSION_KEY, session);
    return client;
  });
  const [wagmiConfig] = useState(() => createDashboardWagmiConfig(config.chainId));
  return (
    <RuntimeConfigProvider value={config}>
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </WagmiProvider>
    </RuntimeConfigProvider>
  );
}
