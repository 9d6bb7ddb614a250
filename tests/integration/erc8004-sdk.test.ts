// The SDK's and the CLI's ERC-8004 commands (docs/api.md#erc-8004-identity) against this process's own
// route handlers and this worker's anvil: `agents.registerErc8004()` sends one register(agentURI)
// from the SDK's wallet — its agentURI the agent's registration file — and links the new identity;
// `taskmarket agent erc8004 link <id>` links one the wallet already holds.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { identityRegistryArtifact } from '@/lib/chain/artifacts';
import { SERVICE_ROUTES } from '@/app/api/route-table';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import type { Method } from '@/lib/http/methods';
import { createClient } from '../../sdk/src/index';
import { main } from '../../sdk/src/cli/program';
import { fund, publicClient } from '../support/chain';
import { TEST_DOMAIN, useTestEnvironment } from '../support/environment';
import { registerIdentity, registries } from '../support/erc8004';
import { workerRpcUrl } from '../support/ports';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const BASE = `https://${TEST_DOMAIN}`;
const realFetch = globalThis.fetch;

/** Requests to the app go to its route handlers in this process; everything else (the RPC) goes out. */
const appFetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.origin !== BASE) return realFetch(input, init);
  request.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.8.0.1'));
  for (const [template, module] of SERVICE_ROUTES) {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${template.replace(/\./g, '\\.').replace(/\[(\w+)\]/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      })}$`,
    );
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const handler = module[request.method as Method]!;
    return handler(request, {
      params: Promise.resolve(Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]))),
    });
  }
  return Response.json({ error: 'Not found' }, { status: 404 });
};

afterEach(() => {
  vi.restoreAllMocks();
  globalThis.fetch = realFetch;
});

const ownerOf = (agentId: bigint) =>
  publicClient().readContract({
    address: registries().identityRegistry,
    abi: identityRegistryArtifact.abi,
    functionName: 'ownerOf',
    args: [agentId],
  });
const tokenUri = (agentId: bigint) =>
  publicClient().readContract({
    address: registries().identityRegistry,
    abi: identityRegistryArtifact.abi,
    functionName: 'tokenURI',
    args: [agentId],
  });

describe('SDK', () => {
  test(
    'default: registerErc8004() registers from the wallet with the registration file as ' + 'agentURI, then links it',
    async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await fund(account.address);
      const tm = createClient({ baseUrl: BASE, account, rpcUrl: workerRpcUrl(), fetch: appFetch, maxRetries: 0 });
      await tm.registerAgent();
      const link = await tm.agents.registerErc8004();
      const agentId = BigInt(link.agentId);
      expect((await ownerOf(agentId)).toLowerCase()).toBe(account.address.toLowerCase());
      const uri = `${BASE}/api/agents/${account.address.toLowerCase()}/registration.json`;
      expect(await tokenUri(agentId)).toBe(uri);
      // The agentURI answers: the file names the identity just linked.
      const file = await tm.agents.registrationFile(account.address);
      expect(file.registrations[0]).toMatchObject({ agentId: Number(agentId) });
      expect((await tm.agents.get(account.address)).erc8004).toMatchObject({ agentId: link.agentId, feedbackCount: 0 });
      expect(await tm.agents.unlinkErc8004()).toEqual({ ok: true });
      expect((await tm.agents.get(account.address)).erc8004).toBeNull();
    },
  );
});

describe('CLI', () => {
  test(
    'default: `agent erc8004 link <id>` links an identity the wallet owns, `register` ' +
      'registers and links a new one',
    async () => {
      const key = generatePrivateKey();
      const account = privateKeyToAccount(key);
      const agentId = await registerIdentity(account);
      globalThis.fetch = appFetch;
      const out: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        out.push(String(chunk));
        return true;
      });
      const env = { TASKMARKET_PRIVATE_KEY: key, TASKMARKET_URL: BASE, TASKMARKET_RPC_URL: workerRpcUrl() };
      expect(await main(['node', 'taskmarket', 'register', '--json'], '0.0.0', env)).toBe(0);
      out.length = 0;
      expect(
        await main(['node', 'taskmarket', 'agent', 'erc8004', 'link', agentId.toString(), '--json'], '0.0.0', env),
      ).toBe(0);
      expect(JSON.parse(out.join(''))).toEqual({
        agentId: agentId.toString(),
        agentRegistry: `eip155:31337:${registries().identityRegistry.toLowerCase()}`,
      });
      // `register` sends the transaction from the key's wallet (funded for gas), then links the new id.
      await main(['node', 'taskmarket', 'agent', 'erc8004', 'unlink'], '0.0.0', env);
      out.length = 0;
      expect(await main(['node', 'taskmarket', 'agent', 'erc8004', 'register', '--json'], '0.0.0', env)).toBe(0);
      const registered = JSON.parse(out.join('')) as { agentId: string };
      expect(BigInt(registered.agentId)).toBeGreaterThan(agentId);
      expect((await ownerOf(BigInt(registered.agentId))).toLowerCase()).toBe(account.address.toLowerCase());
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      expect(await main(['node', 'taskmarket', 'agent', 'erc8004', 'link', 'x1'], '0.0.0', env)).toBe(2);
    },
  );
});
