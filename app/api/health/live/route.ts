// Liveness: answers without touching any dependency (also the benchmark's baseline route).
import { z } from 'zod';
import { otherMethods } from '@/lib/http/methods';
import { observed } from '@/lib/http/observed';
import { documented } from '@/lib/http/operation-doc';

const liveness = z.object({ ok: z.literal(true) });

export const GET = documented(
  observed(async () => Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })),
  { tag: 'Operations', summary: 'Liveness: answers without touching any dependency', response: liveness, static: true },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
