// A stored file as a download: the stored (sniffed) type, never rendered in the page's origin —
// `attachment`, no sniffing, and a CSP that forbids everything should a browser render it anyway.
import { contentDisposition } from '../uploads/filename';

export function fileResponse(file: { filename: string; contentType: string; sha256: string; bytes: Buffer }): Response {
  const text = file.contentType.startsWith('text/') || file.contentType === 'application/json';
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      'Content-Type': text ? `${file.contentType}; charset=utf-8` : file.contentType,
      'Content-Length': String(file.bytes.length),
      'Content-Disposition': contentDisposition(file.filename),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'private, no-store',
      ETag: `"${file.sha256}"`,
    },
  });
}
