// The SDK's one map of upload types (sdk/src/file-types.ts) against the server's policy
// (lib/uploads/file-policy.ts, docs/api.md#uploads): every client declares what the server admits.
import { describe, expect, test } from 'vitest';
import { ALLOWED_TYPES, TEXT_TYPES as SERVER_TEXT_TYPES } from '@/lib/uploads/file-policy';
import { TEXT_TYPES, TYPES_BY_EXTENSION, typeByExtension } from '../../../sdk/src/file-types';
import { toFile } from '../../../sdk/src/files';
import { attachedFiles, inlineFiles } from '../../../sdk/src/mcp/tool-input';
import { declaredType } from '@/lib/web/file-types';

describe('upload types by extension', () => {
  test(
    'behavior: every type the map declares is one the server admits, and every admitted ' + 'type has an extension',
    () => {
      const declared = new Set(Object.values(TYPES_BY_EXTENSION));
      expect([...declared].filter((type) => !(ALLOWED_TYPES as readonly string[]).includes(type))).toEqual([]);
      expect(ALLOWED_TYPES.filter((type) => !declared.has(type))).toEqual([]);
      expect([...TEXT_TYPES].sort()).toEqual([...SERVER_TEXT_TYPES].sort());
    },
  );

  test(
    'behavior: a .log file is text/plain from the SDK, as an MCP text file and attachment, ' + 'and in the dashboard',
    async () => {
      expect((await toFile({ name: 'run.log', data: new Uint8Array([104, 105]) })).type).toBe('text/plain');
      expect(inlineFiles({ textFiles: [{ name: 'run.log', content: 'hi' }] })[0]!.type).toBe('text/plain');
      expect(attachedFiles({ attachments: [{ name: 'run.log', data: 'aGk=' }] })[0]!.type).toBe('text/plain');
      expect(declaredType(new File(['hi'], 'run.log'))).toBe('text/plain');
    },
  );

  test('edge: names without an admitted extension get none; the extension is read case-blind', () => {
    expect(typeByExtension('README')).toBeUndefined();
    expect(typeByExtension('page.html')).toBeUndefined();
    expect(typeByExtension('constructor')).toBeUndefined();
    expect(typeByExtension('x.toString')).toBeUndefined();
    expect(typeByExtension('Notes.MD')).toBe('text/markdown');
  });
});
