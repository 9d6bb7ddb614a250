// Liveness: answers without touching any dependency (also the benchmark's baseline route).
export const GET = async () => Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
