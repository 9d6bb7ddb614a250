// @taskmarket/sdk as an installed package is used: built by tsc into ESM plus .d.ts, imported by
// plain Node through the package's `exports`, not through this repository's TypeScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildSdk } from '../support/sdk/sdk-build';

const ROOT = new URL('../../', import.meta.url).pathname;

beforeAll(buildSdk, 180_000);

describe('package', () => {
  test('default: plain Node imports the built ESM through the package exports', () => {
    const script = `
      import * as sdk from '@taskmarket/sdk';
      const tm = sdk.createClient({ baseUrl: 'http://127.0.0.1:9' });
      const error = await tm.health().catch((e) => e);
      const exports = Object.keys(sdk).sort();
      console.log(JSON.stringify({ exports, isError: error instanceof sdk.TaskmarketError, status: error.status }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      exports: [
        'AmountError',
        'ApiPromise',
        'PagedList',
        'TEXT_TYPES',
        'TYPES_BY_EXTENSION',
        'TaskmarketError',
        'createClient',
        'formatAmount',
        'parseAmount',
        'typeByExtension',
      ],
      isError: true,
      status: 0,
    });
  });

  test('behavior: types ship beside the code, generated types included', () => {
    const dist = new URL('../../sdk/dist/', import.meta.url);
    expect(readFileSync(new URL('index.d.ts', dist), 'utf8')).toContain('createClient');
    expect(existsSync(new URL('generated/api.d.ts', dist))).toBe(true);
    const manifest = JSON.parse(readFileSync(new URL('../../sdk/package.json', import.meta.url), 'utf8'));
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
  });
});
