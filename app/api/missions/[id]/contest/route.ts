import { jsonText } from '@/lib/http/route';
import { contestMission, precheck } from '@/lib/marketplace';
import { contestSchema, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// One URL, two rows: the owner refuses a submission (`reason`, `unmet`, evidence `files`); an entrant
// contests a bounty's award.
export const POST = missionAction(
  ['contest', 'contestAward', 'contestMilestone'],
  {
    gist: 'refuse a delivery with a reason and evidence, or contest an award',
    reads: { body: contestSchema, multipart: true },
    errors: [413, 415],
  },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'contest', params.id, viewer, new Date());
    return withRequestBody(request.body, request.headers, async (body) =>
      jsonText(await contestMission(await db(), cfg, params.id, viewer, body, new Date())),
    );
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
