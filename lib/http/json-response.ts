// A JSON answer that keeps the text it was made from. Over HTTP its body streams as any Response's;
// a reader in this process (the remote MCP tools' in-process fetch, app/api/mcp/api-routes.ts) gets
// the text back as it was written. A plain Response's text() encodes the string into its body
// stream and decodes it again: for a 14 KB board page 17 KB decoded and ~15–20 µs of CPU a tool
// call, the largest allocation of ours in a call over the route it wraps (a sampling heap
// profile, 2026-11-27: `git log -p -- docs/performance.md`).

export class JsonResponse extends Response {
  readonly #text: string;
  #read = false;

  constructor(text: string, init: ResponseInit) {
    super(text, init);
    this.#text = text;
  }

  // Read once, as any body: a second read, or one after the stream was taken, fails as Response's
  // does. The stream itself is never touched here, so bodyUsed stays false after this read.
  override text(): Promise<string> {
    if (this.#read) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    if (this.bodyUsed) return super.text();
    this.#read = true;
    return Promise.resolve(this.#text);
  }
}
