// What an uploaded file is allowed to be (docs/api.md#uploads): its type comes from its content, never from
// the client's word alone. Binary types need their magic number and must agree with what was
// declared; text types have no magic number and are admitted only when declared and valid.
// HTML, SVG and scripts are refused in every disguise. Pure: the facts are gathered by inspect.ts.

export const SNIFFED_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/zip',
] as const;
export const TEXT_TYPES = ['text/plain', 'text/markdown', 'text/csv', 'application/json'] as const;
export const ALLOWED_TYPES = [...SNIFFED_TYPES, ...TEXT_TYPES] as const;

const IMAGE_TYPES = new Set<string>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

// Declarations that say nothing: the content decides.
const UNSPECIFIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'application/x-zip-compressed': 'application/zip',
  'application/x-zip': 'application/zip',
  'application/x-pdf': 'application/pdf',
  'text/x-markdown': 'text/markdown',
};

/** What inspecting the bytes found out. */
export interface FileFacts {
  /** The MIME type file-type recognised from magic numbers, if any. */
  sniffed: string | undefined;
  /** Valid UTF-8 (checked only for files declared as text). */
  utf8: boolean;
  nul: boolean;
  /** The content starts (after a BOM and white space) like an HTML, SVG or XML document, or a `#!` script. */
  documentMarkup: boolean;
  /** HTML or SVG tags appear anywhere: an image that is also a web page (polyglot). */
  embeddedMarkup: boolean;
  /** For files declared JSON: whether the content parses. */
  json?: boolean;
}

export type Verdict = { ok: true; contentType: string } | { ok: false; reason: string };

/** The declared type without parameters, lowercase, aliases resolved; charset kept aside. */
export function parseDeclaredType(header: string | undefined): { type: string; charset: string | undefined } {
  const [type = '', ...params] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return { type: ALIASES[type] ?? type, charset };
}

export function isTextType(type: string): boolean {
  return (TEXT_TYPES as readonly string[]).includes(type);
}

export function classifyFile(declaredHeader: string | undefined, facts: FileFacts): Verdict {
  const declared = parseDeclaredType(declaredHeader);
  if (facts.sniffed) {
    const sniffed = ALIASES[facts.sniffed] ?? facts.sniffed;
    if (!(SNIFFED_TYPES as readonly string[]).includes(sniffed))
      return { ok: false, reason: `type ${sniffed} is not allowed` };
    if (!UNSPECIFIC.has(declared.type) && declared.type !== sniffed) {
      return { ok: false, reason: `content is ${sniffed}, not the declared ${declared.type}` };
    }
    // Browsers have been talked into rendering an image that is also a page; we do not keep one.
    if (IMAGE_TYPES.has(sniffed) && facts.embeddedMarkup)
      return { ok: false, reason: 'image carries HTML or SVG markup' };
    return { ok: true, contentType: sniffed };
  }
  if (!isTextType(declared.type)) {
    return UNSPECIFIC.has(declared.type) || (ALLOWED_TYPES as readonly string[]).includes(declared.type)
      ? { ok: false, reason: 'content type could not be recognised' }
      : { ok: false, reason: `type ${declared.type} is not allowed` };
  }
  if (declared.charset && declared.charset !== 'utf-8' && declared.charset !== 'us-ascii') {
    return { ok: false, reason: 'text files must be UTF-8' };
  }
  if (!facts.utf8 || facts.nul) return { ok: false, reason: 'text files must be valid UTF-8 without NUL bytes' };
  if (facts.documentMarkup) return { ok: false, reason: 'HTML, SVG, XML and scripts are not allowed' };
  if (declared.type === 'application/json' && !facts.json) return { ok: false, reason: 'JSON file does not parse' };
  return { ok: true, contentType: declared.type };
}
