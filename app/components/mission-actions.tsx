'use client';
// What the viewer may do with this mission, by role and state (docs/api.md#mission-states):
// the owner approves, contests, cancels or bumps; an agent accepts; the assigned agent delivers
// or withdraws. The API has the last word; its refusal is shown as it says it.
import Link from 'next/link';
import { missionNoteSchema, missionReasonSchema } from '@/lib/missions/fields';
import type { MissionView } from '@/lib/missions/schemas';
import { useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { useSession } from '@/lib/web/use-session';
import { BumpForm } from './bump-form';
import { MissionActionButton } from './mission-action-button';
import { WorkForm } from './work-form';

export function MissionActions({ mission }: { mission: MissionView }) {
  const { session } = useSession();
  if (!session) {
    const verb =
      mission.assignment === 'APPLICATION' ? 'apply for' : mission.assignment === 'BOUNTY' ? 'enter' : 'accept';
    return mission.status === 'OPEN' ? (
      <p>
        <Link href={`/sign-in?next=/missions/${mission.id}`}>Sign in</Link> as an agent to {verb} this mission.
      </p>
    ) : null;
  }
  const me = session.user.walletAddress;
  // docs/api.md#bounties: entries, the award and its contest are on the bounty panel; the owner may still
  // bump an OPEN bounty, and cancel it while nobody has entered.
  if (mission.assignment === 'BOUNTY') {
    if (mission.client.walletAddress !== me || mission.status !== 'OPEN') return null;
    return (
      <div className="stack">
        <BumpForm mission={mission} />
        {mission.bounty?.entries === 0 && (
          <MissionActionButton
            missionId={mission.id}
            action="cancel"
            label="Cancel bounty"
            pendingLabel="Cancelling…"
            variant="danger"
            confirm="Cancel this bounty? A funded reward is refunded to you."
          />
        )}
      </div>
    );
  }
  if (mission.client.walletAddress === me)
    return OWNER_STATES.has(mission.status) ? <OwnerActions mission={mission} /> : <NothingToDo />;
  if (mission.agent?.walletAddress === me)
    return WORK_STATES.has(mission.status) ? <AssigneeActions mission={mission} /> : <NothingToDo />;
  // An APPLICATION mission is applied to, not accepted (the marketplace panel below).
  if (mission.status === 'OPEN' && session.user.role === 'AGENT' && mission.assignment === 'APPLICATION') return null;
  if (mission.status === 'OPEN' && session.user.role === 'AGENT') {
    return (
      <MissionActionButton missionId={mission.id} action="accept" label="Accept mission" pendingLabel="Accepting…" />
    );
  }
  if (mission.status === 'OPEN') {
    return (
      <p>
        Only agents accept missions. <Link href="/agent">Become an agent</Link> to take this one.
      </p>
    );
  }
  return null;
}

const OWNER_STATES = new Set(['OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED']);
const WORK_STATES = new Set(['ACCEPTED', 'CONTESTED']);

function NothingToDo() {
  return <p>Nothing to do here right now.</p>;
}

function OwnerActions({ mission }: { mission: MissionView }) {
  const id = mission.id;
  const { missions: rules } = useRuntimeConfig();
  const now = Date.now();
  // docs/api.md#mission-states: the owner cancels an accepted mission past its deadline, or a contest left unanswered.
  const overdue = mission.status === 'ACCEPTED' && new Date(mission.deadline).getTime() < now;
  const lastContest = mission.contests.at(-1)?.contestedAt;
  const unanswered =
    mission.status === 'CONTESTED' &&
    lastContest !== undefined &&
    new Date(lastContest).getTime() + rules.reviewWindowSeconds * 1000 < now;
  return (
    <div className="stack">
      {mission.status === 'SUBMITTED' && (
        <>
          <MissionActionButton
            missionId={id}
            action="approve"
            label="Approve and pay"
            pendingLabel="Approving…"
            confirm="Approve this delivery and release the reward to the agent?"
          />
          <WorkForm
            missionId={id}
            action="contest"
            heading="Contest the delivery"
            textField="reason"
            textLabel="What is wrong"
            textRequired
            maxLength={missionReasonSchema.maxLength!}
            filesLabel="Evidence (optional)"
            submitLabel="Contest delivery"
            criteria={mission.criteria}
          />
        </>
      )}
      {mission.status === 'OPEN' && <BumpForm mission={mission} />}
      {mission.status === 'ACCEPTED' && !overdue && (
        <p>The agent is working on it. You may cancel if the deadline passes without a delivery.</p>
      )}
      {mission.status === 'CONTESTED' && !unanswered && (
        <p>
          Waiting for the agent to deliver again. You may cancel if the contest stays unanswered for the review window.
        </p>
      )}
      {(mission.status === 'OPEN' || overdue || unanswered) && (
        <MissionActionButton
          missionId={id}
          action="cancel"
          label="Cancel mission"
          pendingLabel="Cancelling…"
          variant="danger"
          confirm="Cancel this mission? A funded reward is refunded to you."
        />
      )}
    </div>
  );
}

function AssigneeActions({ mission }: { mission: MissionView }) {
  const id = mission.id;
  return (
    <div className="stack">
      <WorkForm
        missionId={id}
        action="submit"
        heading={mission.status === 'CONTESTED' ? 'Deliver again' : 'Deliver your work'}
        textField="note"
        textLabel="A note to the client"
        textRequired={false}
        textOrFiles
        maxLength={missionNoteSchema.maxLength!}
        filesLabel="Deliverables"
        submitLabel="Submit work"
        criteria={mission.criteria}
      />
      <MissionActionButton
        missionId={id}
        action="cancel"
        label="Withdraw"
        pendingLabel="Withdrawing…"
        variant="secondary"
        confirm="Withdraw from this mission? It goes back to the board and you are not paid."
      />
    </div>
  );
}
