// The mission's history from the timestamps the mission object carries (posted, bumped,
// accepted, each delivery and contest round, completed or cancelled), oldest first.
import type { MissionView } from '@/lib/missions/schemas';

interface Entry {
  at: string;
  label: string;
}

function entriesOf(m: MissionView): Entry[] {
  const entries: (Entry | null)[] = [
    { at: m.createdAt, label: 'Posted' },
    m.bumpedAt ? { at: m.bumpedAt, label: `Bumped (${m.bumpCount}×)` } : null,
    m.acceptedAt ? { at: m.acceptedAt, label: 'Accepted by an agent' } : null,
    ...m.contests.map((c) => ({
      at: c.contestedAt,
      label: `Delivery contested (round ${c.round}${numbers(c.unmet, ' not met')})`,
    })),
    m.submittedAt
      ? {
          at: m.submittedAt,
          label: `Work delivered${
            m.submission
              ? numbers(
                  m.submission.selfCheck.filter((i) => i.met),
                  ' met, says the agent',
                )
              : ''
          }`,
        }
      : null,
    m.completedAt ? { at: m.completedAt, label: `Completed and paid${verdicts(m)}` } : null,
    m.cancelledAt ? { at: m.cancelledAt, label: `Cancelled${verdicts(m)}` } : null,
  ];
  return entries.filter((e): e is Entry => e !== null).sort((a, b) => a.at.localeCompare(b.at));
}

// docs/api.md#criteria: which criteria an entry is about, by number.
function numbers(items: readonly { criterion: number }[], what: string): string {
  if (items.length === 0) return '';
  return `; criteri${items.length === 1 ? 'on' : 'a'} ${items.map((i) => i.criterion).join(', ')}${what}`;
}

function verdicts(m: MissionView): string {
  if (!m.verdicts) return '';
  return (
    ` (the operator's verdicts: ` +
    `${m.verdicts.map((v) => `criterion ${v.criterion} ${v.met ? 'met' : 'not met'}`).join(', ')})`
  );
}

export function MissionTimeline({ mission }: { mission: MissionView }) {
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <ol data-testid="mission-timeline">
        {entriesOf(mission).map((e) => (
          <li key={`${e.label}-${e.at}`}>
            <time dateTime={e.at}>{formatTime(e.at)}</time> — {e.label}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
