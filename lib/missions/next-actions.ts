// A mission's next actions for its caller (docs/api.md#next-actions): every row of the transition table
// (transitions.ts) that a route runs (lib/missions/action-routes.ts, generated from the routes) and that
// `decide` allows this caller now — with the route, the MCP tool that calls it, the instant it stops
// being allowed (the row's `until`) and the scope a delegated token lacks for it. Nothing is listed
// here by hand: a new row with a route appears on its own. Pure: facts and time are passed in.
import { toolFor } from '@taskmarket/sdk/mcp/tool-routes';
import { ACTION_ROUTES } from './action-routes';
import type { Scope } from '../oauth/scopes';
import {
  type Action,
  decide,
  dueAt,
  type MissionFacts,
  type MissionRules,
  type MissionStatus,
  type Party,
  TRANSITIONS,
  type Transition,
} from './transitions';
import type { Viewer } from './visibility';

export interface NextAction {
  action: string;
  method: string;
  /** Relative to the origin, the mission's id in place. */
  path: string;
  /** The MCP tool that calls the route, when there is one. */
  tool?: string;
  /** When it stops being allowed (UTC ISO). */
  until?: string;
  /** The scope the caller's token lacks for it: a step-up brings it (docs/api.md#step-up). */
  needsScope?: Scope;
}

/** A delegated token acts for the party the row names: the client's side posts, the agent's side works. */
export const PARTY_SCOPES: Record<Party, Scope | undefined> = {
  owner: 'missions:post',
  assignee: 'missions:work',
  // docs/api.md#settlement-offers: either side; its routes pick the scope by the caller's side.
  participant: undefined,
  agent: 'missions:work',
  named: 'missions:work',
  entrant: 'missions:work',
  operator: undefined,
  system: undefined,
};

interface Routed {
  action: Action;
  method: string;
  path: string;
  scope: Scope | undefined;
  tool: string | undefined;
}

let routed: Map<MissionStatus, Routed[]> | undefined;

// Each routed row once, in the routes' order; a route's scope is its first row's party's. Kept by the states a
// row leaves from: `decide` refuses any other state, so a mission's actions are looked for among its state's
// rows alone: a page of 20 items asks 20 times, and each asked `decide` of every row before.
function routedRows(status: MissionStatus): readonly Routed[] {
  routed ??= byStatus(
    ACTION_ROUTES.flatMap(([method, path, actions]) => {
      const first = TRANSITIONS[actions[0] as Action] as Transition | undefined;
      const scope = first && PARTY_SCOPES[first.party];
      return actions
        .filter((action) => action in TRANSITIONS)
        .map((action) => ({ action: action as Action, method, path, scope, tool: toolFor(method, path) }));
    }),
  );
  return routed.get(status) ?? [];
}

function byStatus(rows: Routed[]): Map<MissionStatus, Routed[]> {
  const map = new Map<MissionStatus, Routed[]>();
  for (const row of rows)
    for (const status of (TRANSITIONS[row.action] as Transition).from)
      map.set(status, [...(map.get(status) ?? []), row]);
  return map;
}

/** What the rows need beyond the mission row: whether the caller entered it (a bounty) or applied (this round). */
export type ActionFacts = MissionFacts & { id: string };

export function nextActions(m: ActionFacts, viewer: Viewer, now: Date, rules: MissionRules): NextAction[] {
  if (viewer.kind !== 'user') return [];
  return routedRows(m.status).flatMap(({ action, method, path, scope, tool }) => {
    if (!decide(action, m, viewer, now, rules).ok) return [];
    const ends = [(TRANSITIONS[action] as Transition).until?.at(m, rules), dueAt(m)].filter((d) => d instanceof Date);
    const until = ends.length > 0 ? new Date(Math.min(...ends.map((d) => d.getTime()))) : undefined;
    const lacks = scope !== undefined && viewer.scopes !== undefined && !viewer.scopes.includes(scope);
    return [
      {
        action,
        method,
        path: path.replace('{id}', m.id),
        ...(tool && { tool }),
        ...(until && { until: until.toISOString() }),
        ...(lacks && { needsScope: scope }),
      },
    ];
  });
}

/** The mission's JSON text with its `actions` for this caller, as the last field. */
export function withActions<T extends string>(json: T, actions: NextAction[]): T {
  return `${json.slice(0, -1)},"actions":${JSON.stringify(actions)}}` as T;
}
