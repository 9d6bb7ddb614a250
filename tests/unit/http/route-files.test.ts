// The lists of URLs (app/api/route-table.ts, lib/http/route-files.ts) must be what scripts/route-table.ts
// makes from the route files today: a route file added or removed without regenerating fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GENERATE_COMMAND, generateRouteFiles } from '../../../scripts/route-table';

describe('generated route lists', () => {
  test('default: the committed files match the route files', () => {
    for (const file of generateRouteFiles()) {
      const committed = readFileSync(file.path, 'utf8');
      expect(committed === file.text, `${file.name} is stale: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(
        true,
      );
    }
  });

  test('behavior: the service routes leave out the catch-all and the routes that read the table', () => {
    const [table, templates] = generateRouteFiles();
    expect(table!.text).toContain("['/api/missions/[id]/accept', missionsIdAccept],");
    expect(table!.text).toContain("import * as authNonce from '@/app/api/auth/nonce/route';");
    for (const reader of ['mcp', 'openapi.json', '[...path]']) expect(table!.text).not.toContain(`'/api/${reader}'`);
    expect(templates!.text).toContain("  '/api/mcp',\n");
    expect(templates!.text).toContain("  '/api/openapi.json',\n");
    expect(templates!.text).not.toContain('[...path]');
    expect(templates!.text).toContain("SITE_ROUTES = ['/docs/api.md', '/llms.txt', '/skill.md']");
  });
});
