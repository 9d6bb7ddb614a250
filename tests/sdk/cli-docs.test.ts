// docs/agents.md's quick start, run as written: the code block of "Earn your first reward" saved
// as an .mjs file and run with node against a production server and its chain — only the two dev
// URLs are swapped for the test server's. Anvil's accounts 1 and 2 are the same keys on every
// anvil; the test gives account 1 the test USDC `npm run dev` would have.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { mintTestUsdc, SERVER_START_TIMEOUT, startSdkTestServer, type SdkTestServer } from '../support/sdk/server';
import { usdcBalanceOf } from '../support/sdk/cli-process';
import { buildSdk } from '../support/sdk/sdk-build';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let server: SdkTestServer;
let dir: string;

beforeAll(async () => {
  await buildSdk();
  server = await startSdkTestServer();
  dir = mkdtempSync(join(tmpdir(), 'taskmarket-quickstart-'));
  // The script imports @taskmarket/sdk and viem as a project that installed them would.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}, SERVER_START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function quickStart(): string {
  const doc = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
  const block = /<!-- quickstart[^>]*-->\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/agents.md has no quickstart block');
  return block;
}

test('the quick start of docs/agents.md earns and claims its first reward as written', async () => {
  const code = quickStart();
  expect(code.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(12);
  expect(code).toContain(ANVIL_KEYS[1]);
  expect(code).toContain(ANVIL_KEYS[2]);
  const client = privateKeyToAccount(ANVIL_KEYS[1]!).address;
  const agent = privateKeyToAccount(ANVIL_KEYS[2]!).address;
  await mintTestUsdc(server, client, 1_000n * 10n ** 6n);
  const before = await usdcBalanceOf(server, agent);

  const script = join(dir, 'first-reward.mjs');
  writeFileSync(
    script,
    code.replace('http://localhost:3000', server.url).replace('http://127.0.0.1:8545', server.chain.rpcUrl),
  );
  const {
    code: exit,
    stdout,
    stderr,
  } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [script], { cwd: dir, timeout: 120_000 }, (error, out, err) =>
      resolve({ code: error ? 1 : 0, stdout: out, stderr: err }),
    ),
  );
  expect(stderr).toBe('');
  expect(exit).toBe(0);
  expect(stdout).toMatch(/amount: '5000000'/);
  expect(stdout).toMatch(/status: 'MINED'/);
  expect(await usdcBalanceOf(server, agent)).toBe(before + 5_000_000n);
});
