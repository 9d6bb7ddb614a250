// docs/api.md#milestones: a milestone mission's parts — each one's status, amount and review window — and a
// progress bar of what releasePart has paid out of the reward. The actions act on the milestone at hand.
import type { MissionView } from '@/lib/missions/schemas';
import { formatTime } from './mission-timeline';

const STATUS_WORDS: Record<MissionView['milestones'][number]['status'], string> = {
  PENDING: 'Pending',
  SUBMITTED: 'Waiting for review',
  CONTESTED: 'Contested',
  DISPUTED: 'With the operator',
  APPROVED: 'Approved and released',
};

export function MilestonesPanel({ mission }: { mission: MissionView }) {
  if (mission.milestones.length === 0) return null;
  const reward = BigInt(mission.reward);
  const released = BigInt(mission.released);
  // A whole percent, rounded down: the bar never shows more than was released.
  const percent = reward > 0n ? Number((released * 100n) / reward) : 0;
  const atHand = mission.milestones.find((m) => m.status !== 'APPROVED');
  return (
    <section aria-labelledby="milestones-heading">
      <h2 id="milestones-heading">Milestones</h2>
      <p>
        <label htmlFor="milestones-progress">
          Released {mission.released} of {mission.reward} base units ({percent}%)
        </label>
        <br />
        <progress id="milestones-progress" max={100} value={percent} style={{ width: '100%' }}>
          {percent}%
        </progress>
      </p>
      {atHand && mission.status !== 'CANCELLED' && (
        <p className="hint">Milestone {atHand.number} is at hand: submit, approve and contest act on it.</p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Milestone</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Review until</th>
          </tr>
        </thead>
        <tbody>
          {mission.milestones.map((m) => (
            <tr key={m.number} aria-current={m === atHand ? 'step' : undefined}>
              <td>{m.number}</td>
              <td>
                {m.title}
                {m.criteria && <div className="hint">{m.criteria}</div>}
              </td>
              <td>{m.amount}</td>
              <td>
                {STATUS_WORDS[m.status]}
                {m.contests > 0 && ` · ${m.contests} contest${m.contests === 1 ? '' : 's'}`}
              </td>
              <td>{m.reviewDeadline ? formatTime(m.reviewDeadline) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
