// Liveness: answers without touching any dependency (also the benchmark's baseline route).
import { otherMethods } from '@/lib/http/methods';
import { observed } from '@/lib/http/observed';

export const GET = observed(async () => Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
