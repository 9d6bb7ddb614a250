import { describe, expect, test } from 'vitest';
import { MISSION_STATUSES } from '@/lib/fields';
import { planChanges } from '@/lib/missions/changes';
import { splitReward } from '@/lib/missions/ledger';
import { type Action, decide, type MissionFacts, type MissionStatus, TRANSITIONS } from '@/lib/missions/transitions';
import { canSeeFile, canSeeMission, type Viewer } from '@/lib/missions/visibility';

const NOW = new Date('2030-01-01T00:00:00Z');
const rules = { reviewWindowSeconds: 3600, maxContests: 2, acceptWindowSeconds: 7200 };
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

const owner: Viewer = { kind: 'user', id: 'owner', role: 'CLIENT' };
const assignee: Viewer = { kind: 'user', id: 'agent', role: 'AGENT' };
const otherAgent: Viewer = { kind: 'user', id: 'other', role: 'AGENT' };
const stranger: Viewer = { kind: 'user', id: 'stranger', role: 'CLIENT' };
const entrant: Viewer = { kind: 'user', id: 'entrant', role: 'AGENT' };

// Every state there is (docs/api.md#mission-states), AWAITING_FUNDING included: the one declaration, not a copy.
const STATUSES: readonly MissionStatus[] = MISSION_STATUSES;

function facts(status: MissionStatus, overrides: Partial<MissionFacts> = {}): MissionFacts {
  return {
    status,
    clientId: 'owner',
    agentId: status === 'OPEN' ? null : 'agent',
    deadline: at(86_400),
    reviewDeadline: status === 'SUBMITTED' ? at(60) : null,
    contestedAt: status === 'CONTESTED' ? at(-60) : null,
    contestCount: 0,
    bumpedAt: null,
    acceptedAt: status === 'OPEN' ? null : at(-60),
    assignmentMode: 'FIRST_COME',
    entryCount: 0,
    ...overrides,
  };
}

// The named party of each row, and the facts under which its time rule (if any) is satisfied.
const PARTY: Record<Action, Viewer> = {
  fund: { kind: 'system' },
  accept: otherAgent,
  submit: assignee,
  approve: owner,
  expire: { kind: 'system' },
  approveOnChecks: { kind: 'system' },
  contest: owner,
  cancel: owner,
  withdraw: assignee,
  reopen: owner,
  reclaim: { kind: 'system' },
  assign: owner,
  apply: otherAgent,
  enter: otherAgent,
  bump: owner,
  resolveComplete: { kind: 'operator' },
  resolveCancel: { kind: 'operator' },
  judge: { kind: 'system' },
  lapse: { kind: 'system' },
  award: owner,
  escalate: { kind: 'system' },
  contestAward: entrant,
  finalize: { kind: 'system' },
  resolveAward: { kind: 'operator' },
  submitMilestone: assignee,
  approveMilestone: owner,
  expireMilestone: { kind: 'system' },
  contestMilestone: owner,
  resolveMilestone: { kind: 'operator' },
  resolveSplit: { kind: 'operator' },
  settleByAgreement: owner,
  refundByAgreement: owner,
  acceptOrder: { kind: 'system' },
  decline: assignee,
};
const MILESTONES = { milestoneCount: 3, milestone: 1, milestoneContestCount: 0 } satisfies Partial<MissionFacts>;
const TIMELY: Partial<Record<Action, Partial<MissionFacts>>> = {
  expire: { reviewDeadline: at(-1) },
  approveOnChecks: { autoApprove: 'onChecks', submissionChecks: [{ passed: true }] },
  cancel: { deadline: at(-1), contestedAt: at(-3601) },
  reopen: { acceptedAt: at(-7200) },
  assign: { assignmentMode: 'APPLICATION' },
  apply: { assignmentMode: 'APPLICATION' },
  enter: { assignmentMode: 'BOUNTY' },
  judge: { assignmentMode: 'BOUNTY', deadline: at(-1), entryCount: 1 },
  lapse: { assignmentMode: 'BOUNTY', deadline: at(-1) },
  award: { assignmentMode: 'BOUNTY', reviewDeadline: at(60), entryCount: 2 },
  escalate: { assignmentMode: 'BOUNTY', reviewDeadline: at(-1), entryCount: 2 },
  contestAward: { assignmentMode: 'BOUNTY', reviewDeadline: at(60), entryCount: 2, entered: true },
  finalize: { assignmentMode: 'BOUNTY', reviewDeadline: at(-1), entryCount: 2 },
  resolveAward: { assignmentMode: 'BOUNTY', entryCount: 2 },
  submitMilestone: MILESTONES,
  approveMilestone: MILESTONES,
  expireMilestone: { ...MILESTONES, reviewDeadline: at(-1) },
  contestMilestone: MILESTONES,
  resolveMilestone: MILESTONES,
  acceptOrder: { assignmentMode: 'DIRECT', directAgentId: 'agent', offeringId: 'offering' },
  decline: { assignmentMode: 'DIRECT', directAgentId: 'agent', acceptedAt: at(-60) },
};

describe('decide: the transition table row by row', () => {
  for (const action of Object.keys(TRANSITIONS) as Action[]) {
    for (const status of STATUSES) {
      const allowed = (TRANSITIONS[action].from as readonly MissionStatus[]).includes(status);
      // An OPEN mission has no assigned agent, so nobody is the party of an agent's row there; an
      // unfunded one exists for its poster alone (docs/api.md#post-and-pay): anyone else hears 404.
      const hidden = status === 'AWAITING_FUNDING' && !canSeeMission(facts(status, TIMELY[action]), PARTY[action]);
      const refusal = hidden ? 404 : TRANSITIONS[action].party === 'assignee' && status === 'OPEN' ? 403 : 409;
      test(`${action} from ${status} is ${allowed ? 'allowed' : refusal}`, () => {
        const decision = decide(action, facts(status, TIMELY[action]), PARTY[action], NOW, rules);
        if (allowed) expect(decision).toMatchObject({ ok: true, from: status });
        else expect(decision).toMatchObject({ ok: false, status: refusal });
      });
    }
  }

  test('behavior: each row lands where the table says', () => {
    const to = (action: Action, status: MissionStatus, extra: Partial<MissionFacts> = {}) => {
      const d = decide(action, facts(status, { ...TIMELY[action], ...extra }), PARTY[action], NOW, rules);
      return d.ok ? d.to : d.status;
    };
    expect(to('accept', 'OPEN')).toBe('ACCEPTED');
    expect(to('submit', 'ACCEPTED')).toBe('SUBMITTED');
    expect(to('submit', 'CONTESTED')).toBe('SUBMITTED');
    expect(to('approve', 'SUBMITTED')).toBe('COMPLETED');
    expect(to('expire', 'SUBMITTED')).toBe('COMPLETED');
    expect(to('contest', 'SUBMITTED')).toBe('CONTESTED');
    expect(to('contest', 'SUBMITTED', { contestCount: 1 })).toBe('CONTESTED');
    expect(to('contest', 'SUBMITTED', { contestCount: 2 })).toBe('DISPUTED');
    expect(to('cancel', 'OPEN')).toBe('CANCELLED');
    expect(to('cancel', 'ACCEPTED')).toBe('CANCELLED');
    expect(to('cancel', 'CONTESTED')).toBe('CANCELLED');
    expect(to('withdraw', 'ACCEPTED')).toBe('OPEN');
    expect(to('withdraw', 'CONTESTED')).toBe('OPEN');
    expect(to('bump', 'OPEN')).toBe('OPEN');
    expect(to('resolveComplete', 'DISPUTED')).toBe('COMPLETED');
    expect(to('resolveCancel', 'DISPUTED')).toBe('CANCELLED');
    expect(to('judge', 'OPEN')).toBe('JUDGING');
    expect(to('lapse', 'OPEN')).toBe('CANCELLED');
    expect(to('award', 'JUDGING')).toBe('AWARDED');
    expect(to('escalate', 'JUDGING')).toBe('DISPUTED');
    expect(to('contestAward', 'AWARDED')).toBe('DISPUTED');
    expect(to('finalize', 'AWARDED')).toBe('COMPLETED');
    expect(to('resolveAward', 'DISPUTED')).toBe('COMPLETED');
    expect(to('resolveSplit', 'DISPUTED')).toBe('COMPLETED');
    expect(to('settleByAgreement', 'SUBMITTED')).toBe('COMPLETED');
    expect(to('settleByAgreement', 'CONTESTED')).toBe('COMPLETED');
    expect(to('refundByAgreement', 'DISPUTED')).toBe('CANCELLED');
    // docs/api.md#settlement-offers: either party answers; a bounty is settled by its award.
    expect(to('settleByAgreement', 'SUBMITTED', { assignmentMode: 'BOUNTY' })).toBe(409);
    expect(to('acceptOrder', 'OPEN')).toBe('ACCEPTED');
    expect(to('decline', 'OPEN')).toBe('CANCELLED');
    expect(to('decline', 'ACCEPTED')).toBe('CANCELLED');
  });

  test('behavior: a milestone mission follows the milestone at hand (docs/api.md#milestones)', () => {
    const to = (action: Action, status: MissionStatus, extra: Partial<MissionFacts> = {}) => {
      const d = decide(action, facts(status, { ...TIMELY[action], ...extra }), PARTY[action], NOW, rules);
      return d.ok ? d.to : d.status;
    };
    expect(to('submitMilestone', 'ACCEPTED')).toBe('SUBMITTED');
    expect(to('approveMilestone', 'SUBMITTED')).toBe('ACCEPTED');
    expect(to('approveMilestone', 'SUBMITTED', { milestone: 3 })).toBe('COMPLETED');
    expect(to('expireMilestone', 'SUBMITTED', { milestone: 2 })).toBe('ACCEPTED');
    expect(to('expireMilestone', 'SUBMITTED', { reviewDeadline: at(60) })).toBe(409);
    expect(to('resolveMilestone', 'DISPUTED', { milestone: 3 })).toBe('COMPLETED');
    // MAX_CONTESTS rounds per milestone: the mission's own count of rounds does not decide.
    expect(to('contestMilestone', 'SUBMITTED', { contestCount: 5, milestoneContestCount: 1 })).toBe('CONTESTED');
    expect(to('contestMilestone', 'SUBMITTED', { milestoneContestCount: 2 })).toBe('DISPUTED');
    // Each kind of mission takes its own rows only.
    expect(to('submit', 'ACCEPTED', MILESTONES)).toBe(409);
    expect(to('approve', 'SUBMITTED', MILESTONES)).toBe(409);
    expect(to('contest', 'SUBMITTED', MILESTONES)).toBe(409);
    expect(to('resolveComplete', 'DISPUTED', MILESTONES)).toBe(409);
    expect(to('approveMilestone', 'SUBMITTED', { milestoneCount: null, milestone: null })).toBe(409);
  });
});

describe('decide: assignment modes (docs/api.md#applications)', () => {
  test('error: accept of an APPLICATION mission is 409; assign of a FIRST_COME one is 409', () => {
    expect(decide('accept', facts('OPEN', { assignmentMode: 'APPLICATION' }), otherAgent, NOW, rules)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(decide('assign', facts('OPEN'), owner, NOW, rules)).toMatchObject({ ok: false, status: 409 });
    expect(decide('assign', facts('OPEN', { assignmentMode: 'APPLICATION' }), owner, NOW, rules)).toMatchObject({
      ok: true,
      to: 'ACCEPTED',
    });
    expect(decide('assign', facts('OPEN', { assignmentMode: 'APPLICATION' }), otherAgent, NOW, rules)).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});

describe('decide: time rules', () => {
  test('behavior: reopen waits ACCEPT_WINDOW_SECONDS after acceptance, to the second', () => {
    expect(decide('reopen', facts('ACCEPTED', { acceptedAt: at(-7199) }), owner, NOW, rules)).toMatchObject({
      ok: false,
      status: 409,
      message: `The agent has until ${at(1).toISOString()} to deliver before it can be reopened`,
    });
    expect(decide('reopen', facts('ACCEPTED', { acceptedAt: at(-7200) }), owner, NOW, rules)).toMatchObject({
      ok: true,
      to: 'OPEN',
    });
    expect(decide('reopen', facts('ACCEPTED', { acceptedAt: at(-7200) }), assignee, NOW, rules)).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  test('error: accepting a mission whose deadline has passed is 409', () => {
    expect(decide('accept', facts('OPEN', { deadline: at(-1) }), otherAgent, NOW, rules)).toMatchObject({
      ok: false,
      status: 409,
    });
  });
  test('error: the review window still open cannot expire', () => {
    expect(decide('expire', facts('SUBMITTED'), { kind: 'system' }, NOW, rules)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(decide('expire', facts('SUBMITTED', { reviewDeadline: NOW }), { kind: 'system' }, NOW, rules)).toMatchObject(
      { ok: true },
    );
  });
  test('error: contesting after the review window is 409', () => {
    expect(decide('contest', facts('SUBMITTED', { reviewDeadline: at(-1) }), owner, NOW, rules)).toMatchObject({
      status: 409,
    });
  });
  test('behavior: the owner cancels ACCEPTED only past the deadline', () => {
    expect(decide('cancel', facts('ACCEPTED'), owner, NOW, rules)).toMatchObject({ ok: false, status: 409 });
    expect(decide('cancel', facts('ACCEPTED', { deadline: at(-1) }), owner, NOW, rules)).toMatchObject({ ok: true });
  });
  test('behavior: the owner cancels CONTESTED only after a review window without an answer', () => {
    expect(decide('cancel', facts('CONTESTED', { contestedAt: at(-3599) }), owner, NOW, rules)).toMatchObject({
      status: 409,
    });
    expect(decide('cancel', facts('CONTESTED', { contestedAt: at(-3600) }), owner, NOW, rules)).toMatchObject({
      ok: true,
    });
  });
  test('error: a second bump within the hour is 429 with the seconds left', () => {
    expect(decide('bump', facts('OPEN', { bumpedAt: at(-3599) }), owner, NOW, rules)).toMatchObject({
      status: 429,
      retryAfter: 1,
    });
    expect(decide('bump', facts('OPEN', { bumpedAt: at(-3600) }), owner, NOW, rules)).toMatchObject({ ok: true });
    // The state is checked first: a bump of a taken mission is 409, not 429.
    expect(decide('bump', facts('ACCEPTED', { bumpedAt: at(-1) }), owner, NOW, rules)).toMatchObject({ status: 409 });
  });
  test('behavior: MAX_CONTESTS=0 sends the first contest to DISPUTED', () => {
    expect(decide('contest', facts('SUBMITTED'), owner, NOW, { ...rules, maxContests: 0 })).toMatchObject({
      to: 'DISPUTED',
    });
  });
});

describe('decide: wrong callers', () => {
  test('error: a caller who is not the party is 403 on a mission it can see, 404 otherwise', () => {
    expect(decide('submit', facts('OPEN'), otherAgent, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('submit', facts('ACCEPTED'), otherAgent, NOW, rules)).toMatchObject({ status: 404 });
    expect(decide('approve', facts('SUBMITTED'), assignee, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('approve', facts('SUBMITTED'), stranger, NOW, rules)).toMatchObject({ status: 404 });
    expect(decide('contest', facts('SUBMITTED'), assignee, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('bump', facts('OPEN'), otherAgent, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('cancel', facts('ACCEPTED'), stranger, NOW, rules)).toMatchObject({ status: 404 });
    expect(decide('withdraw', facts('ACCEPTED'), owner, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('resolveComplete', facts('DISPUTED'), owner, NOW, rules)).toMatchObject({ status: 403 });
    expect(decide('expire', facts('SUBMITTED', { reviewDeadline: at(-1) }), owner, NOW, rules)).toMatchObject({
      status: 403,
    });
  });
  test('error: the owner cannot accept their own mission, even as an agent', () => {
    expect(decide('accept', facts('OPEN'), { kind: 'user', id: 'owner', role: 'AGENT' }, NOW, rules)).toMatchObject({
      status: 403,
    });
  });
  test('error: a client cannot accept', () => {
    expect(decide('accept', facts('OPEN'), stranger, NOW, rules)).toMatchObject({ status: 403 });
  });
  test('behavior: any agent is the party of accept, so a taken mission is 409, not 404', () => {
    expect(decide('accept', facts('ACCEPTED'), otherAgent, NOW, rules)).toMatchObject({ status: 409 });
  });
});

describe('visibility', () => {
  const anonymous: Viewer = { kind: 'anonymous' };
  test('default: OPEN is public, other states only for the two parties and the operator', () => {
    for (const status of STATUSES) {
      const m = facts(status);
      expect(canSeeMission(m, anonymous)).toBe(status === 'OPEN');
      expect(canSeeMission(m, stranger)).toBe(status === 'OPEN');
      expect(canSeeMission(m, owner)).toBe(true);
      expect(canSeeMission(m, { kind: 'operator' })).toBe(true);
    }
  });
  test('behavior: work files only for the parties, and only the current assignment for the agent', () => {
    const m = { ...facts('CONTESTED'), assignment: 2 };
    expect(canSeeFile(m, { kind: 'DELIVERABLE', assignment: 2, uploaderId: 'agent' }, assignee)).toBe(true);
    expect(canSeeFile(m, { kind: 'DELIVERABLE', assignment: 1, uploaderId: 'agent' }, assignee)).toBe(false);
    expect(canSeeFile(m, { kind: 'DELIVERABLE', assignment: 1, uploaderId: 'agent' }, owner)).toBe(true);
    expect(
      canSeeFile(
        { ...m, status: 'OPEN', agentId: null },
        { kind: 'EVIDENCE', assignment: 2, uploaderId: 'owner' },
        otherAgent,
      ),
    ).toBe(false);
    expect(
      canSeeFile(
        { ...m, status: 'OPEN', agentId: null },
        { kind: 'ATTACHMENT', assignment: 0, uploaderId: 'owner' },
        anonymous,
      ),
    ).toBe(true);
  });
});

describe('changes and money', () => {
  const row = { reward: '100', bumpCount: 0, assignment: 1, submissionCount: 0, contestCount: 1 } as never;
  test('behavior: a submission opens a review window from now', () => {
    expect(planChanges(['recordSubmission'], row, assignee, { note: 'x' }, NOW, rules)).toMatchObject({
      submissionCount: 1,
      reviewDeadline: at(3600),
      submittedAt: NOW,
    });
  });
  test('behavior: accept starts a new assignment with fresh rounds', () => {
    expect(planChanges(['assign'], row, assignee, {}, NOW, rules)).toMatchObject({
      agentId: 'agent',
      assignment: 2,
      contestCount: 0,
    });
  });
  test('error: a bump cannot lower the reward', () => {
    expect(() => planChanges(['bump'], row, owner, { reward: 99n }, NOW, rules)).toThrow(/Validation failed/);
    expect(planChanges(['bump'], row, owner, { reward: 150n }, NOW, rules)).toMatchObject({
      reward: '150',
      bumpCount: 1,
      listedAt: NOW,
    });
  });
  test("behavior: the fee rounds down, in the agent's favour", () => {
    expect(splitReward(25_000_000n, 250)).toEqual({ fee: 625_000n, net: 24_375_000n });
    expect(splitReward(3n, 5000)).toEqual({ fee: 1n, net: 2n });
    expect(splitReward(7n, 0)).toEqual({ fee: 0n, net: 7n });
    expect(splitReward((1n << 256n) - 1n, 10_000)).toEqual({ fee: (1n << 256n) - 1n, net: 0n });
  });
});
