// Facts about a file gathered while it streams past, so nothing has to hold it in memory: its
// SHA-256, whether it is valid UTF-8 without NUL bytes, and whether it looks like a web page.
import { createHash } from 'node:crypto';

// What browsers sniff as HTML or XML at the start of a document (WHATWG MIME Sniffing §7.1), and
// `#!`, the start of a script.
const DOCUMENT_START =
  /^(?:#!|<!--|<(?:!doctype|\?xml|html|head|body|script|svg|iframe|object|embed|style|meta|link|frameset|math)\b)/i;
// Tags that turn an image into an HTML/SVG polyglot when found anywhere in it.
const EMBEDDED_TAG = /<(?:script|html|svg|iframe|object|embed|body|!doctype)[\s>/]/i;
const HEAD_BYTES = 1024;

export class FileInspector {
  private readonly hash = createHash('sha256');
  private readonly decoder: TextDecoder | undefined;
  private utf8 = true;
  private nul = false;
  private embedded = false;
  private tail = '';
  private head = Buffer.alloc(0);
  size = 0;

  /** `text`: the file was declared as text, so its encoding is checked. */
  constructor(text: boolean) {
    this.decoder = text ? new TextDecoder('utf-8', { fatal: true }) : undefined;
  }

  update(chunk: Buffer): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.head.length < HEAD_BYTES)
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    if (this.decoder && this.utf8) {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.utf8 = false;
      }
    }
    if (!this.nul && chunk.includes(0)) this.nul = true;
    if (!this.embedded) {
      // Keep a tail so a tag split across two chunks is still seen.
      const window = this.tail + chunk.toString('latin1');
      this.embedded = EMBEDDED_TAG.test(window);
      this.tail = window.slice(-16);
    }
  }

  finish() {
    if (this.decoder && this.utf8) {
      try {
        this.decoder.decode(); // a sequence cut off at the end is invalid too
      } catch {
        this.utf8 = false;
      }
    }
    const start = this.head.toString('utf8').replace(/^[\ufeff\s]+/, '');
    return {
      sha256: this.hash.digest('hex'),
      size: this.size,
      utf8: this.utf8,
      nul: this.nul,
      documentMarkup: DOCUMENT_START.test(start),
      embeddedMarkup: this.embedded,
    };
  }
}
