// Upload types by file extension: the one map the SDK, the CLI, the MCP tools and the dashboard declare a
// file's type from (docs/api.md#uploads). Text types have no magic number, so the server admits them only
// when declared; binary types it recognises by their content. tests/unit/sdk/file-types.test.ts holds
// this map to the server's policy (lib/uploads/file-policy.ts).
export const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

/** The types the server admits only when they are declared. */
export const TEXT_TYPES: readonly string[] = ['text/plain', 'text/markdown', 'text/csv', 'application/json'];

/** The type a file's name implies, or undefined for an extension the server does not admit. */
export function typeByExtension(name: string): string | undefined {
  const extension = name.includes('.') ? name.split('.').pop()!.toLowerCase() : '';
  return Object.hasOwn(TYPES_BY_EXTENSION, extension) ? TYPES_BY_EXTENSION[extension] : undefined;
}

export const isTextType = (type: string | undefined): boolean => type !== undefined && TEXT_TYPES.includes(type);
