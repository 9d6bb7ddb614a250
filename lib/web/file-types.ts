// What the file picker admits, and a declared type for every file the browser leaves untyped:
// the server admits text files only when declared as text (docs/api.md#uploads), and browsers often send
// `.md` or `.csv` with an empty type. The extensions are the SDK's (one map for every client).
import { TYPES_BY_EXTENSION, typeByExtension } from '@taskmarket/sdk';

const LABELS: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'application/pdf': 'PDF',
  'application/zip': 'ZIP',
  'text/plain': 'text',
  'text/markdown': 'Markdown',
  'text/csv': 'CSV',
  'application/json': 'JSON',
};

/** The `accept` attribute for an <input type="file">: MIME types and their extensions. */
export function acceptAttribute(allowed: readonly string[]): string {
  const extensions = Object.entries(TYPES_BY_EXTENSION)
    .filter(([, type]) => allowed.includes(type))
    .map(([ext]) => `.${ext}`);
  return [...allowed, ...extensions].join(',');
}

export function describeAllowedTypes(allowed: readonly string[]): string {
  return allowed.map((type) => LABELS[type] ?? type).join(', ');
}

/** The type to declare for a file: the browser's, or the one its extension implies. */
export function declaredType(file: File): string {
  return file.type || typeByExtension(file.name) || 'application/octet-stream';
}

/** A copy of the file carrying its declared type, so FormData sends a meaningful Content-Type. */
export function withDeclaredType(file: File): File {
  const type = declaredType(file);
  return type === file.type ? file : new File([file], file.name, { type, lastModified: file.lastModified });
}

/** Problems the server would refuse anyway, told before the upload starts. */
export function checkFiles(
  files: readonly File[],
  limits: { maxFiles: number; maxFileBytes: number; allowedTypes: readonly string[] },
): string[] {
  const problems: string[] = [];
  if (files.length > limits.maxFiles)
    problems.push(`At most ${limits.maxFiles} files per upload (${files.length} chosen).`);
  for (const file of files) {
    if (file.size > limits.maxFileBytes)
      problems.push(`${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(limits.maxFileBytes)}.`);
    if (!limits.allowedTypes.includes(declaredType(file)))
      problems.push(`${file.name}: this type of file is not accepted.`);
  }
  return problems;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
