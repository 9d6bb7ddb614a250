// File names from the outside world: what we store (sanitized once, at upload) and how we hand
// them back in a Content-Disposition header that no name can break out of. Pure.

const MAX_NAME_CHARS = 200;
const MAX_EXTENSION_CHARS = 16;

// C0/C1 controls (CR/LF would split headers), bidi overrides and isolates (U+202A–202E,
// U+2066–2069, which make `gpj.exe` read as `exe.jpg`), zero-width and BOM characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;
// Path separators and characters Windows refuses, plus quotes that end a quoted header value.
const UNSAFE = /[/\\:*?"<>|;`$]/g;

/** A safe, readable file name: no path, no control or direction characters, at most 200 characters. */
export function sanitizeFilename(raw: string): string {
  // Whatever the client sent, only the last path segment is a name (`../../etc/passwd` → `passwd`).
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = base.normalize('NFC').replace(INVISIBLE, '').replace(UNSAFE, '_').replace(/\s+/g, ' ');
  // Leading dots make hidden files; trailing dots and spaces are dropped by Windows.
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  name = truncateKeepingExtension(name);
  return name === '' ? 'file' : name;
}

function truncateKeepingExtension(name: string): string {
  const chars = Array.from(name); // code points, so a surrogate pair is never cut in half
  if (chars.length <= MAX_NAME_CHARS) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(name.slice(dot)) : [];
  if (extension.length > 1 && extension.length <= MAX_EXTENSION_CHARS) {
    return (
      chars
        .slice(0, MAX_NAME_CHARS - extension.length)
        .join('')
        .trimEnd() + extension.join('')
    );
  }
  return chars.slice(0, MAX_NAME_CHARS).join('').trimEnd();
}

/**
 * `attachment` with both forms of RFC 6266: an ASCII-only quoted fallback and the exact UTF-8
 * name in `filename*`, percent-encoded so quotes, semicolons and line breaks cannot appear raw.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
