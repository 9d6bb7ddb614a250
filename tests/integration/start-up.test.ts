// docs/api.md#operator-secrets, #configuration: a production server refuses to start on settings that would leave it
// open — a short operator secret, or per-process memory for nonces, limits and revocations — and says
// which setting, before it serves anything. Each case starts the real server entry.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { freePort } from '@/lib/chain/anvil-node';
import { loadConfig } from '@/lib/config';

const base = {
  NODE_ENV: 'production',
  BASE_CHAIN_ID: '8453',
  SIWE_DOMAIN: 'app.example.com',
  JWT_SECRET: randomBytes(32).toString('hex'),
  SESSION_SECRET: randomBytes(32).toString('hex'),
  REDIS_URL: 'redis://127.0.0.1:6379',
};

/** Runs `tsx server.ts` with exactly `env`; answers its exit code and what it printed. */
async function startServer(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const port = String(await freePort());
  return new Promise((resolve, reject) => {
    const child = spawn(join('node_modules', '.bin', 'tsx'), ['server.ts'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: port, ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('production start-up', () => {
  test.each([
    ['ADMIN_TOKEN=short', { ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 32 characters'],
    ['a 31-character CRON_SECRET', { CRON_SECRET: 'c'.repeat(31) }, 'CRON_SECRET must be at least 32 characters'],
    [
      'no shared KV and no SINGLE_INSTANCE',
      { REDIS_URL: undefined },
      'REDIS_URL or KV_REST_API_URL + KV_REST_API_TOKEN is required in production',
    ],
  ])('error: %s stops the server with a message naming the setting', async (_name, change, message) => {
    const { code, output } = await startServer({ ...base, ...change });
    expect(code).toBe(1);
    expect(output).toContain(message);
    expect(output).not.toMatch(/at .+\.ts:\d+/); // a message, not a stack
  });

  test('behavior: SINGLE_INSTANCE=1 admits the memory KV in production, with a warning', () => {
    const cfg = loadConfig({ ...base, REDIS_URL: undefined, SINGLE_INSTANCE: '1' });
    expect(cfg.singleInstance).toBe(true);
    expect(cfg.warnings.join('\n')).toMatch(/SINGLE_INSTANCE=1/);
  });

  test('behavior: a registrar key without an operator key is worth a warning in production only', () => {
    const registrar = { REGISTRAR_PRIVATE_KEY: `0x${'1'.repeat(64)}` };
    expect(loadConfig({ ...base, ...registrar }).warnings.join('\n')).toMatch(/OPERATOR_PRIVATE_KEY is unset/);
    // scripts/dev.ts: the local chain's account 0 is registrar and operator by design.
    expect(loadConfig({ NODE_ENV: 'development', ...registrar }).warnings).toEqual([]);
  });

  test('behavior: in production the relayer relays only with its own key unless told to share the operator key', () => {
    const keys = {
      RPC_URL: 'http://127.0.0.1:8545',
      REGISTRAR_PRIVATE_KEY: `0x${'1'.repeat(64)}`,
      OPERATOR_PRIVATE_KEY: `0x${'2'.repeat(64)}`,
    };
    const unset = loadConfig({ ...base, ...keys });
    expect(unset.chain.relayerKey).toBeUndefined();
    expect(unset.warnings.join('\n')).toMatch(/RELAYER_PRIVATE_KEY is unset: relayed funding is off/);
    const own = loadConfig({ ...base, ...keys, RELAYER_PRIVATE_KEY: `0x${'3'.repeat(64)}` });
    expect(own.chain.relayerKey).toBe(`0x${'3'.repeat(64)}`);
    expect(own.warnings.join('\n')).not.toMatch(/RELAYER_PRIVATE_KEY/);
    expect(loadConfig({ ...base, ...keys, RELAYER_SHARES_OPERATOR_KEY: '1' }).chain.relayerKey).toBe(
      keys.OPERATOR_PRIVATE_KEY,
    );
    // Development keeps relaying with the operator key (scripts/dev.ts).
    expect(loadConfig({ NODE_ENV: 'development', ...keys }).chain.relayerKey).toBe(keys.OPERATOR_PRIVATE_KEY);
  });

  test('behavior: operator secrets of 32 characters or more are accepted', () => {
    expect(() => loadConfig({ ...base, ADMIN_TOKEN: 'a'.repeat(32), CRON_SECRET: 'c'.repeat(40) })).not.toThrow();
  });
});
