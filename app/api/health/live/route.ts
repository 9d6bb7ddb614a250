// Liveness: answers without touching any dependency (also the benchmark's baseline route).
import { otherMethods } from '@/lib/http/methods';

export const GET = async () => Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
