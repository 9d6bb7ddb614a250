// A route that runs rows of the transition table (lib/missions/transitions.ts, docs/api.md#mission-states):
// who may call it (the party's role and delegated scope), its limit, its `id` and its OpenAPI entry's
// tag, `FROM → TO` summary and refusals all come from the rows; the route adds only what it alone
// knows — its body, a gist, and its handler.
import type { z } from 'zod';
import { idSchema } from '@/lib/fields';
import type { CustomError } from '@/lib/http/operation-doc';
import { type RouteContext, route } from '@/lib/http/route';
import { missionSchema } from '@/lib/missions';
import { type Action, type Party, TRANSITIONS, type Transition, targetsOf } from '@/lib/missions/transitions';
import { PARTY_SCOPES } from '@/lib/missions/next-actions';
import type { Scope } from '@/lib/oauth/scopes';

interface Words<B> {
  /** What the summary adds to the rows' `FROM → TO`. */
  gist?: string;
  description?: string;
  /** A body the wrapper validates (JSON). */
  body?: B;
  /** A body the handler reads itself (after its precheck), JSON or multipart, for the document only. */
  reads?: { body: z.ZodType; multipart?: true };
  /** Refusals beyond the table's 403, 404 and 409: an upload's 413 and 415, a release's 202. */
  errors?: (number | CustomError)[];
}

type ActionOptions<B> = {
  auth: 'user' | 'AGENT';
  runs: readonly Action[];
  scope: Scope;
  limit: 'write';
  params: { id: typeof idSchema };
  body: B;
  doc: {
    tag: string;
    summary: string;
    description?: string;
    body?: z.ZodType;
    multipart?: true;
    response: typeof missionSchema;
    errors: (number | CustomError)[];
  };
};

const WHO: Partial<Record<Party, string>> = { owner: 'the owner', assignee: 'the assigned agent', agent: 'an agent' };

/** `OPEN → ACCEPTED`, or for a URL of two rows each with who takes it. */
function summaryOf(rows: Transition[], gist: string | undefined): string {
  const moves = rows.map((t) => {
    const targets = targetsOf(t);
    // A row that keeps the state it found (a bump) says so rather than list its states twice.
    const stays = targets.length === t.from.length && t.from.every((s) => targets.includes(s));
    const move = stays ? `${t.from.join(', ')}, unchanged` : `${t.from.join(', ')} → ${targets.join(' or ')}`;
    return rows.length > 1 && WHO[t.party] ? `${move} (${WHO[t.party]})` : move;
  });
  return gist ? `${moves.join('; ')}: ${gist}` : moves.join('; ');
}

/**
 * `actions`: the row the URL runs, or its rows when one URL serves two parties (cancel: the owner
 * cancels, the agent withdraws) — the first one's party decides the role and scope.
 */
export function missionAction<B extends z.ZodType | undefined = undefined>(
  actions: Action | readonly [Action, ...Action[]],
  words: Words<B>,
  handler: (ctx: RouteContext<ActionOptions<B>>) => Promise<Response>,
) {
  const rows: Transition[] = (typeof actions === 'string' ? [actions] : actions).map((a) => TRANSITIONS[a]);
  const first = rows[0]!;
  const scope = PARTY_SCOPES[first.party];
  if (!scope) throw new Error(`a ${first.party}'s transition has no route of a user's`);
  // Someone other than the named party who may see the mission is told so (403), not just 409.
  const refusals = rows.some((t) => t.party !== 'agent') ? [403, 404, 409] : [404, 409];
  const options: Omit<ActionOptions<B>, 'body'> & { body?: B } = {
    auth: first.party === 'agent' ? 'AGENT' : 'user',
    runs: typeof actions === 'string' ? [actions] : actions,
    scope,
    limit: 'write',
    params: { id: idSchema },
    ...(words.body ? { body: words.body } : {}),
    doc: {
      tag: first.topic ?? 'Missions',
      summary: summaryOf(rows, words.gist),
      ...(words.description ? { description: words.description } : {}),
      ...(words.reads ?? {}),
      response: missionSchema,
      errors: [...new Set([...refusals, ...(words.errors ?? [])])],
    },
  };
  // The options are ActionOptions<B> exactly; TypeScript cannot follow route()'s checks through a generic body.
  return route<ActionOptions<B>>(options as never, handler);
}
