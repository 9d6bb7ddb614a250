// A mission's acceptance criteria (docs/api.md#criteria): numbered, with their hash and the operator's
// verdicts; and the per-criterion lines a delivery's self-check or a contest's unmet list carry.
import type { MissionView } from '@/lib/missions/schemas';

type Criterion = MissionView['criteria'][number];
type Check = NonNullable<Criterion['check']>;

/** docs/api.md#checked-criteria: what the machine checks, in a line. */
export function checkSummary(check: Check): string {
  switch (check.type) {
    case 'file':
      return [
        `${check.minCount ?? 1} file(s)`,
        check.name && `named ${check.name}`,
        check.mime && `of type ${check.mime}`,
        check.maxBytes && `at most ${check.maxBytes} bytes`,
      ]
        .filter(Boolean)
        .join(' ');
    case 'jsonSchema':
      return `${check.file} is JSON matching the client's schema`;
    case 'sha256':
      return `${check.file} has SHA-256 ${check.digest}`;
    case 'httpGet':
      return `GET ${check.url} answers ${check.status ?? 200}${check.contentType ? ` (${check.contentType})` : ''}`;
  }
}

export function MissionCriteria({ mission }: { mission: MissionView }) {
  if (mission.criteria.length === 0) return null;
  const verdictOf = (n: number) => mission.verdicts?.find((v) => v.criterion === n);
  return (
    <section aria-labelledby="criteria-heading">
      <h2 id="criteria-heading">Acceptance criteria</h2>
      <ol data-testid="mission-criteria">
        {mission.criteria.map((c) => {
          const verdict = verdictOf(c.number);
          return (
            <li key={c.number} value={c.number}>
              {c.text}
              {c.check && <span className="hint"> — checked by machine: {checkSummary(c.check)}</span>}
              {verdict && <strong> — operator: {verdict.met ? 'met' : 'not met'}</strong>}
            </li>
          );
        })}
      </ol>
      {/* docs/api.md#auto-approval: the client's approval, given in advance. */}
      {mission.autoApprove === 'onChecks' && (
        <p data-testid="auto-approve">Pays automatically when every check passes at submit.</p>
      )}
      <p className="hint">
        Frozen since posting. Hash (keccak256 of the criteria as JSON):{' '}
        <code data-testid="criteria-hash" style={{ overflowWrap: 'anywhere' }}>
          {mission.criteriaHash}
        </code>
      </p>
    </section>
  );
}

const textOf = (criteria: readonly Criterion[], n: number) => criteria.find((c) => c.number === n)?.text ?? '';

/** A delivery's self-check: each criterion it names, met or not, with its note. */
export function SelfCheckList({
  criteria,
  items,
}: {
  criteria: readonly Criterion[];
  items: readonly { criterion: number; met: boolean; note?: string }[];
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="The agent's self-check" data-testid="self-check">
      {items.map((i) => (
        <li key={i.criterion}>
          {i.met ? '✓' : '✗'} {i.criterion}. {textOf(criteria, i.criterion)}
          {i.note && <span className="hint"> — {i.note}</span>}
        </li>
      ))}
    </ul>
  );
}

/** A contest's unmet criteria, each with the owner's reason. */
export function UnmetList({
  criteria,
  items,
}: {
  criteria: readonly Criterion[];
  items: readonly { criterion: number; reason: string }[];
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="Criteria not met" data-testid="unmet-criteria">
      {items.map((i) => (
        <li key={i.criterion}>
          Not met: {i.criterion}. {textOf(criteria, i.criterion)} — {i.reason}
        </li>
      ))}
    </ul>
  );
}

/** docs/api.md#checked-criteria: what the machine found of a delivery, apart from the agent's self-check. */
export function CheckResultList({
  criteria,
  items,
}: {
  criteria: readonly Criterion[];
  items: readonly { criterion: number; passed: boolean; detail: string }[];
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="Checks run at submit" data-testid="submission-checks">
      {items.map((i) => (
        <li key={i.criterion}>
          {i.passed ? '✓ passed' : '✗ failed'} {i.criterion}. {textOf(criteria, i.criterion)}
          <span className="hint"> — {i.detail}</span>
        </li>
      ))}
    </ul>
  );
}
