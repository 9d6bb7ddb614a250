// The discovery documents' answer (docs/api.md#discovery): text for a model or a person, the same for
// everyone until the next deployment, so caches may keep it for an hour.
export function textDocument(text: string, type: 'text/markdown' | 'text/plain'): Response {
  return new Response(text, {
    headers: { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'public, max-age=3600' },
  });
}
