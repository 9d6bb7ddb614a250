// A pull-based multipart/form-data reader (RFC 7578): parts are read from the request stream only
// as fast as the caller consumes them, so one file is handled completely before the next byte of
// the next is read, and a limit breach stops reading at once. It never buffers a part body.
import { ApiError } from '../errors';

export interface PartHeaders {
  name: string;
  /** Present (possibly empty) when the part is a file. */
  filename: string | undefined;
  contentType: string | undefined;
}

export interface MultipartLimits {
  /** Bytes of a part's header block. */
  maxHeaderBytes: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new ApiError(400, 'Malformed multipart body', ['Content-Type has no boundary']);
  return boundary;
}

export class MultipartReader {
  private buffer: Buffer = Buffer.from(CRLF); // the first delimiter then reads like every other one
  private ended = false;
  private readonly delimiter: Buffer;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** The next part's headers, or undefined after the closing delimiter. The previous body must be consumed. */
  async nextPart(first: boolean): Promise<PartHeaders | undefined> {
    if (first) await this.skipPreamble();
    await this.need(2);
    if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) return undefined; // "--": the end
    // Transport padding (RFC 2046 §5.1.1) may follow the boundary before its CRLF.
    let end = this.buffer.indexOf(CRLF);
    while (end < 0) {
      if (this.buffer.length > 256) throw malformed('Boundary line too long');
      await this.need(this.buffer.length + 1);
      end = this.buffer.indexOf(CRLF);
    }
    if (this.buffer.subarray(0, end).toString('latin1').trim() !== '') throw malformed('Garbage after boundary');
    this.buffer = this.buffer.subarray(end + 2);
    return parseHeaders(await this.headerBlock());
  }

  /** The current part's body, chunk by chunk, up to the next delimiter. */
  async *body(): AsyncGenerator<Buffer> {
    const keep = this.delimiter.length - 1;
    for (;;) {
      const at = this.buffer.indexOf(this.delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        return;
      }
      // Everything except a tail that might be the start of the delimiter is body.
      if (this.buffer.length > keep) {
        const chunk = this.buffer.subarray(0, this.buffer.length - keep);
        this.buffer = this.buffer.subarray(this.buffer.length - keep);
        yield chunk;
      }
      if (!(await this.fill())) throw malformed('Body ended before the closing boundary');
    }
  }

  // Text before the first boundary is ignored (RFC 2046), but only a little of it is read.
  private async skipPreamble(): Promise<void> {
    let bytes = 0;
    for await (const chunk of this.body()) {
      bytes += chunk.length;
      if (bytes > 1024) throw malformed('No boundary at the start of the body');
    }
  }

  /** Stops reading the request: nothing more is wanted from it. */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  private async headerBlock(): Promise<string> {
    if (this.buffer.length < 2) await this.need(2);
    if (this.buffer[0] === 0x0d && this.buffer[1] === 0x0a) {
      this.buffer = this.buffer.subarray(2);
      return '';
    }
    let end = this.buffer.indexOf(HEADER_END);
    while (end < 0) {
      if (this.buffer.length > this.limits.maxHeaderBytes) throw malformed('Part headers too large');
      await this.need(this.buffer.length + 1);
      end = this.buffer.indexOf(HEADER_END);
    }
    const block = this.buffer.subarray(0, end).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4);
    return block;
  }

  private async need(bytes: number): Promise<void> {
    while (this.buffer.length < bytes) {
      if (!(await this.fill())) throw malformed('Body ended before the closing boundary');
    }
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return true;
  }
}

function malformed(detail: string): ApiError {
  return new ApiError(400, 'Malformed multipart body', [detail]);
}

function parseHeaders(block: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed('Malformed part header');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition))
    throw malformed('Part without Content-Disposition: form-data');
  const params = dispositionParams(disposition);
  const name = params.get('name');
  if (name === undefined || name === '') throw malformed('Part without a name');
  // RFC 7578 §4.2: filename* (RFC 5987) wins over filename when both are present and decodable.
  const filename = decodeExtended(params.get('filename*')) ?? params.get('filename');
  return { name, filename, contentType: headers.get('content-type') };
}

function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1]!.toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!.trim();
    if (!params.has(key)) params.set(key, raw);
  }
  return params;
}

function decodeExtended(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^utf-8'[^']*'(.*)$/i.exec(value);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}
