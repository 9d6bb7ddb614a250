// Every npm script works as the README says (issue 17): each one that does not start a server or
// run a suite or a benchmark is run here and must exit 0 — or, called without its arguments, fail
// with its usage message. A new script must be put in one of the two lists below.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const scripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);

/** Not run here, each for its reason. */
const NOT_RUN: Record<string, string> = {
  dev: 'starts a development server (a chain and Next.js) that runs until stopped',
  start: 'starts the production server, which runs until stopped (tests/faults and tests/e2e start it)',
  build: 'a production build takes minutes; .ci/run runs it before the suites that need it',
  test: 'this suite itself',
  'test:faults': 'a suite of its own, run by .ci/run',
  'test:e2e': 'a suite of its own, run by .ci/run',
  typecheck: 'the whole project through tsc; .ci/run runs it first',
  bench: 'benchmarks need a production build and minutes of load',
  'bench:floors': 'benchmarks need a production build and minutes of load',
  'bench:scale': 'seeds up to a million missions and measures them for minutes',
  'bench:peer': 'benchmarks need a production build and minutes of load',
  'bench:libraries': 'builds one variant of the app per library and measures each for minutes',
  'bench:counts': 'starts a PostgreSQL, a Redis and a production instance of its own and counts for minutes',
  soak: 'two production instances under load for SOAK_MINUTES; .ci/run runs it for 3',
  'sdk:generate': 'tests/unit/sdk/generated.test.ts runs its generator and compares what it makes with the committed files',
  'sdk:build': 'tests/sdk build the SDK through tests/support/sdk/sdk-build.ts, one build at a time: a build here would rewrite sdk/dist under a CLI another worker runs',
  postinstall: 'npm install runs it (the SDK build, as sdk:build)',
};

type Expectation = { args?: string[]; env?: Record<string, string>; exit: 0 | 'usage'; output: RegExp };

function runs(): Record<string, Expectation> {
  return {
    'contracts:compile': { exit: 0, output: /contracts\/out/ },
    'chain:deploy': { exit: 'usage', output: /usage: npm run chain:deploy -- --rpc <url>/ },
    'db:generate': { exit: 0, output: /No schema changes, nothing to migrate/ },
    'db:check': { exit: 0, output: /Everything's fine/ },
    'db:migrate': { exit: 0, output: /the database is at the newest migration/ },
    'bench:memory': { exit: 0, output: /100,000|100000/ },
    // Without BENCH_OLD it stops before building anything.
    'bench:builds': { exit: 'usage', output: /BENCH_OLD=<git ref> names the old side/ },
  };
}

describe('npm scripts', () => {
  test('default: every script is either run below or named with the reason it is not', () => {
    const classified = new Set([...Object.keys(NOT_RUN), ...Object.keys(runs())]);
    expect(scripts.filter((name) => !classified.has(name))).toEqual([]);
  });

  test.each(Object.entries(runs()))('npm run %s', (name, expectation) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-script-'));
    try {
      // A clean environment: no test database or KV of this run leaks into the script.
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', DATA_DIR: dataDir, ...expectation.env };
      const result = spawnSync('npm', ['run', '--silent', name, ...(expectation.args ? ['--', ...expectation.args] : [])], {
        env,
        encoding: 'utf8',
        timeout: 150_000,
      });
      const output = `${result.stdout}\n${result.stderr}`;
      if (expectation.exit === 0) expect(result.status, output).toBe(0);
      else expect(result.status, output).not.toBe(0);
      expect(output).toMatch(expectation.output);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('behavior: contracts:compile leaves the committed artifacts as they are', () => {
    const status = spawnSync('git', ['status', '--porcelain', 'contracts/out', 'lib/chain/artifacts.ts'], { encoding: 'utf8' });
    expect(status.stdout).toBe('');
  });
});
