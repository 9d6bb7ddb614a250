const page = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, text: 'x'.repeat(700) })), nextCursor: null });
export const GET = async () => new Response(page, { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
