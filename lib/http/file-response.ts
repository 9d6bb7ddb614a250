// A stored file as a download: the stored (sniffed) type, never rendered in the page's origin —
// `attachment`, no sniffing, and a CSP that forbids everything should a browser render it anyway.
// The body is pulled slice by slice as the client reads, so a slow reader holds one slice at most.
import { contentDisposition } from '../uploads/filename';

export interface FileDownload {
  filename: string;
  contentType: string;
  sha256: string;
  size: number;
  chunks: AsyncGenerator<Buffer>;
}

export function fileResponse(file: FileDownload): Response {
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await file.chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      async cancel() {
        await file.chunks.return(undefined);
      },
    },
    // One slice queued ahead at most: the next is read only when the client has taken this one.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: fileHeaders(file) });
}

/**
 * HEAD of a download (docs/api.md#files): the same headers — Content-Length is the stored size — and no
 * body; the blob's slices are never read (the generator is closed unstarted).
 */
export function fileHeadResponse(file: FileDownload): Response {
  void file.chunks.return(undefined);
  return new Response(null, { status: 200, headers: fileHeaders(file) });
}

function fileHeaders(file: FileDownload): Record<string, string> {
  const text = file.contentType.startsWith('text/') || file.contentType === 'application/json';
  return {
    'Content-Type': text ? `${file.contentType}; charset=utf-8` : file.contentType,
    'Content-Length': String(file.size),
    'Content-Disposition': contentDisposition(file.filename),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'private, no-store',
    ETag: `"${file.sha256}"`,
  };
}
