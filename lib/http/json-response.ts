// JSON answers: json() and jsonText(), and the Response that keeps the text it was made from.
// Over HTTP its body streams as any Response's;
// a reader in this process (the remote MCP tools' in-process fetch, app/api/mcp/api-routes.ts) gets
// the text back as it was written. A plain Response's text() encodes the string into its body
// stream and decodes it again: for a 14 KB board page 17 KB decoded and ~15–20 µs of CPU a tool
// call, the largest allocation of ours in a call over the route it wraps (a sampling heap
// profile, 2026-11-27: `git log -p -- docs/performance.md`).

export class JsonResponse extends Response {
  readonly #text: string;

  constructor(text: string, init: ResponseInit) {
    super(text, init);
    this.#text = text;
  }

  // Read once, as any body: the stream is cancelled unread (which marks the body used, so any later
  // read fails as Response's does), and a body already used goes to Response's own refusal.
  override text(): Promise<string> {
    if (this.bodyUsed) return super.text();
    void this.body?.cancel();
    return Promise.resolve(this.#text);
  }
}

type JsonInit = { status?: number; headers?: Record<string, string> };

export function json(data: unknown, init: JsonInit = {}): Response {
  return jsonText(JSON.stringify(data), init);
}

export function jsonText(text: string, init: JsonInit = {}): Response {
  return new JsonResponse(text, {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...init.headers },
  });
}
