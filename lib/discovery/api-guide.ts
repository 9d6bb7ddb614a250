// docs/api.md as the site serves it at /docs/api.md (docs/api.md#discovery): the guide in prose beside
// the generated reference at /docs. Read once per process; next.config.ts traces the file into the
// deployment. A failed read is not kept, so the next request tries again.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

let guide: Promise<string> | undefined;

export function apiGuide(): Promise<string> {
  guide ??= readFile(join(process.cwd(), 'docs', 'api.md'), 'utf8').catch((error: unknown) => {
    guide = undefined;
    throw error;
  });
  return guide;
}
