// A newcomer's first minutes (README "Run it"): `npm run dev` on too old a Node, or with the chain's
// port taken, stops at once with one line saying what to do — never a stack from deep inside.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** Runs the version check as `npm run dev` does, on a Node that reports `version`. */
function checkNode(version: string) {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
  return spawnSync(process.execPath, ['--import', pretend, 'scripts/require-node.mjs'], { encoding: 'utf8' });
}

describe('npm run dev: the Node version', () => {
  test.each(['20.19.0', '22.11.9', '18.20.4'])('error: Node %s stops with one line naming 22.12.0', (version) => {
    const result = checkNode(version);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `taskmarket needs Node.js 22.12.0 or later (24 LTS recommended); this is Node.js ${version}.`,
    ]);
  });

  test.each(['22.12.0', '22.23.3', '24.0.0', '26.1.0'])('default: Node %s passes silently', (version) => {
    const result = checkNode(version);
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
  });
});

describe('npm run dev: the chain port', () => {
  let holder: Server;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-dev-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => {
    holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('error: a taken CHAIN_PORT stops before anything starts, naming the port and the setting', () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      CHAIN_PORT: String(port),
    };
    const result = spawnSync('npm', ['run', '--silent', 'dev'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      `port ${port} is taken: stop what listens there, or start on another with CHAIN_PORT=<port> npm run dev`,
    );
  });
});
