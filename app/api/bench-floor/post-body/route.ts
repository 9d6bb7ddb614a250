export const POST = async (request: Request) => { await request.json(); return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } }); };
