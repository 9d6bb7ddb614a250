import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { viewerOf } from '@/lib/missions';
import { MAX_WAIT_SECONDS, missionTimeline } from '@/lib/missions/timeline';
import { timelineQuerySchema, timelineSchema } from '@/lib/missions/schemas';

// docs/api.md#timeline: the mission's events after `after`, or held up to `wait` seconds for the next.
export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    params: { id: idSchema },
    query: timelineQuerySchema,
    doc: {
      tag: 'Missions',
      summary: `A mission's events after a seq, at once or held up to ${MAX_WAIT_SECONDS} s for the next`,
      description:
        'Without events after `after`, a `wait` of 1–25 holds the request until the next one (any instance) ' +
        'or the time is up (then `events` is empty). At most 5 held requests a user (429) and 200 an instance (503).',
      response: timelineSchema,
      errors: [404, 429, 503],
    },
  },
  async ({ request, params, caller, query, cfg, kv, ip, db }) => {
    const holder = caller ? `user:${caller.user.id}` : `ip:${ip}`;
    const viewer = viewerOf(caller);
    return json(await missionTimeline(await db(), cfg, kv, params.id, viewer, holder, query, request.signal));
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
