// What the soak's users do, one visit at a time, through the SDK as an integrator would: browse the
// board (sorts, filters, search, cursor pages, a mission), sign in, look at their own dashboard,
// run a mission's whole life with uploads and an on-chain escrow, and claim earnings on-chain.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { nextIp, type Party, type Population } from './population';

export type VisitKind = 'browse' | 'sign-in' | 'dashboard' | 'lifecycle' | 'claim';

/** How often each kind of visit starts, relative to the others: mostly reading, some writing. */
export const MIX: Record<VisitKind, number> = { browse: 62, 'sign-in': 15, dashboard: 21, lifecycle: 1.5, claim: 0.5 };
const MIX_TOTAL = Object.values(MIX).reduce((a, b) => a + b, 0);

// docs/api.md#missions: a client posts at most 20 missions an hour; the soak's clients stay under it.
const CREATE_LIMIT = { max: 20, windowMs: 3_600_000 };
// docs/api.md#post-and-pay: and has ten relayed fundings a day (lib/limits/rate-limit.ts `relay`).
const RELAY_LIMIT = { max: 10, windowMs: 86_400_000 };

/** Lifecycle visits (each one relayed funding) a second at `visitsPerSecond` visits of the mix. */
export const fundingsPerSecond = (visitsPerSecond: number) => visitsPerSecond * (MIX.lifecycle / MIX_TOTAL);

/**
 * How many clients keep `visitsPerSecond` going for `minutes` with every lifecycle visit made: each
 * posts at most CREATE_LIMIT.max missions an hour and RELAY_LIMIT.max relayed fundings a day, and a
 * quarter more for the ones busy in a visit.
 */
export function clientsFor(visitsPerSecond: number, minutes: number): number {
  const posts = fundingsPerSecond(visitsPerSecond) * minutes * 60;
  const perClient = Math.min(CREATE_LIMIT.max * Math.max(1, minutes / 60), RELAY_LIMIT.max);
  return Math.ceil((posts / perClient) * 1.25);
}

/**
 * The relayer's hourly budget (RELAY_BUDGET_PER_HOUR) a run at `visitsPerSecond` spends: one
 * broadcast a funding, so 3,600 an hour for each funding a second (docs/soak.md#the-relay-budget).
 */
export const relayBudgetFor = (visitsPerSecond: number) => Math.ceil(fundingsPerSecond(visitsPerSecond) * 3600);

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const chance = (p: number) => Math.random() < p;

/**
 * Deals visit kinds in MIX's proportions, evenly spread (smooth weighted round robin): every
 * stretch of 200 visits holds 124 browses, 30 sign-ins, 42 dashboards, 3 lifecycles and a claim,
 * so each minute of the soak carries the same work and one minute's p99 compares with another's.
 * Drawn at random, the lifecycle visits (the heaviest: an upload, a chain escrow, ~37 webhooks
 * each) came 41, 57 and 70 to a minute in a 3-minute CI run, and the minute of 70 failed the p99
 * rule on the draw alone.
 */
export function visitDealer(): () => VisitKind {
  const kinds = Object.keys(MIX) as VisitKind[];
  const credit = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<VisitKind, number>;
  return () => {
    let dealt = kinds[0]!;
    for (const kind of kinds) {
      credit[kind] += MIX[kind];
      if (credit[kind] > credit[dealt]) dealt = kind;
    }
    credit[dealt] -= MIX_TOTAL;
    return dealt;
  };
}

// Words the seeded board's titles and descriptions hold (scripts/bench/seed.ts), and one it does not.
const WORDS = ['translate', 'label', 'audit', 'tests', 'papers', 'benchmark', 'contract', 'images', 'nothingmatches'];
const CATEGORIES = ['data', 'code', 'writing', 'design', 'research'];
const SORTS = ['bumped', 'reward', 'created', 'deadline'] as const;

// The smallest PNG: the server sniffs its magic bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const BRIEF = Buffer.from(`Label every product in the attached photos.\n${'Bounding boxes, COCO JSON. '.repeat(40)}\n`);

async function browse(people: Population): Promise<void> {
  const tm = people.client(undefined, nextIp());
  const query = {
    sort: pick(SORTS),
    ...(chance(0.3) && { category: pick(CATEGORIES) }),
    ...(chance(0.35) && { q: pick(WORDS) }),
  };
  let page = await tm.missions.list(query);
  for (let more = Math.floor(Math.random() * 3); more > 0 && page.nextCursor; more--)
    page = await tm.missions.list({ ...query, cursor: page.nextCursor });
  const mission = page.items.length ? pick(page.items) : undefined;
  // A mission accepted since the page was read is no longer public: 404 (docs/api.md#missions), not a failure.
  if (mission)
    await tm.missions.get(mission.id).catch((error: { status?: number }) => {
      if (error.status !== 404) throw error;
    });
  if (chance(0.15)) await tm.public.stats();
  if (chance(0.1)) await tm.agents.leaderboard({ period: pick(['7d', '30d', 'all'] as const) });
}

async function signIn(people: Population): Promise<void> {
  // Mostly wallets that were here before; one in five is a new user.
  const returning = chance(0.8)
    ? pick(people.returning)
    : { account: privateKeyToAccount(generatePrivateKey()), ip: nextIp() };
  const tm = people.client(returning.account, returning.ip);
  await tm.signIn();
  await tm.auth.me();
}

async function dashboard(people: Population): Promise<void> {
  if (chance(0.5)) {
    const { tm } = pick(people.clients);
    const page = await tm.missions.list({ mine: 'client', ...(chance(0.3) && { status: 'COMPLETED' }) });
    if (page.items.length) await tm.missions.get(pick(page.items).id);
    if (chance(0.2)) await tm.enterprise.analytics();
  } else {
    const { tm } = pick(people.agents);
    await tm.auth.me();
    await tm.missions.list({ mine: 'agent' });
    await tm.agents.earnings();
  }
}

/** Takes a free party for the visit, or none when all are busy (the visit is then not made). */
function take(parties: Party[], which: (p: Party) => boolean = () => true): Party | undefined {
  const free = parties.filter((p) => !p.busy && which(p));
  const party = free.length ? pick(free) : undefined;
  if (party) party.busy = true;
  return party;
}

async function lifecycle(people: Population): Promise<boolean> {
  const now = Date.now();
  const client = take(
    people.clients,
    (p) =>
      p.created.filter((at) => at > now - CREATE_LIMIT.windowMs).length < CREATE_LIMIT.max &&
      p.created.filter((at) => at > now - RELAY_LIMIT.windowMs).length < RELAY_LIMIT.max,
  );
  const agent = client && take(people.agents);
  if (!client || !agent) {
    if (client) client.busy = false;
    return false;
  }
  try {
    client.created.push(now);
    const category = pick(CATEGORIES);
    const mission = await client.tm.fundAndCreateMission(
      {
        title: `Soak mission: ${pick(WORDS)} ${Date.now()}`,
        description: 'A mission of the soak run: label the images and return the export.',
        category,
        tags: ['soak', pick(WORDS)],
        reward: String((1 + Math.floor(Math.random() * 5)) * 1_000_000),
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
      { files: [{ name: 'brief.txt', data: BRIEF, type: 'text/plain' }] },
    );
    await agent.tm.missions.get(mission.id);
    await agent.tm.missions.accept(mission.id);
    const submitted = await agent.tm.missions.submit(mission.id, {
      note: 'Done: the export is attached.',
      files: [{ name: 'export.png', data: PNG, type: 'image/png' }],
    });
    await client.tm.missions.get(mission.id);
    await client.tm.missions.download(mission.id, submitted.submission!.files[0]!.id);
    await client.tm.missions.approve(mission.id);
    agent.unclaimed += 1;
    return true;
  } finally {
    client.busy = false;
    agent.busy = false;
  }
}

async function claim(people: Population): Promise<boolean> {
  const agent = take(people.agents, (p) => p.unclaimed > 0);
  if (!agent) return false;
  try {
    await agent.tm.agents.earnings();
    await agent.tm.agents.claim();
    agent.unclaimed = 0;
    return true;
  } finally {
    agent.busy = false;
  }
}

/** Runs one visit; false when it could not be made (every party it needs was busy). */
export async function visit(kind: VisitKind, people: Population): Promise<boolean> {
  if (kind === 'browse') await browse(people);
  else if (kind === 'sign-in') await signIn(people);
  else if (kind === 'dashboard') await dashboard(people);
  else if (kind === 'lifecycle') return lifecycle(people);
  else return claim(people);
  return true;
}
