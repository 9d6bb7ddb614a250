'use client';
// Per-criterion answers in the delivery and contest forms (docs/api.md#criteria): the agent ticks each
// criterion it met, with an optional note (selfCheck); the owner ticks each one not met, with a reason
// (unmet, at least one required by the API).
import type { MissionView } from '@/lib/missions/schemas';
import { MAX_CRITERION_LENGTH } from '@/lib/missions/criteria';

export interface CriterionAnswer {
  checked: boolean;
  text: string;
}

interface Props {
  mode: 'selfCheck' | 'unmet';
  criteria: MissionView['criteria'];
  answers: Record<number, CriterionAnswer>;
  error?: string;
  onChange: (answers: Record<number, CriterionAnswer>) => void;
}

export function CriteriaChecklist({ mode, criteria, answers, error, onChange }: Props) {
  const set = (n: number, change: Partial<CriterionAnswer>) =>
    onChange({ ...answers, [n]: { checked: false, text: '', ...answers[n], ...change } });
  const selfCheck = mode === 'selfCheck';
  return (
    <fieldset
      className="stack"
      aria-describedby={error ? `${mode}-error` : undefined}
      data-testid={`${mode}-checklist`}
    >
      <legend>{selfCheck ? 'Your check of the criteria' : 'Criteria not met (at least one)'}</legend>
      {criteria.map((c) => {
        const answer = answers[c.number] ?? { checked: false, text: '' };
        const id = `${mode}-${c.number}`;
        return (
          <div key={c.number} className="field">
            <label>
              <input
                type="checkbox"
                checked={answer.checked}
                onChange={(e) => set(c.number, { checked: e.target.checked })}
              />{' '}
              {c.number}. {c.text}
              {selfCheck ? ' — met' : ''}
            </label>
            {(selfCheck || answer.checked) && (
              <>
                <label htmlFor={`${id}-text`} className="visually-hidden">
                  {selfCheck ? `Note on criterion ${c.number}` : `Why criterion ${c.number} is not met`}
                </label>
                <input
                  id={`${id}-text`}
                  value={answer.text}
                  maxLength={MAX_CRITERION_LENGTH}
                  placeholder={selfCheck ? 'Note (optional)' : 'Why it is not met'}
                  onChange={(e) => set(c.number, { text: e.target.value })}
                />
              </>
            )}
          </div>
        );
      })}
      {error && (
        <p id={`${mode}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The answers as the API's list: every criterion for a self-check, the ticked ones for unmet. */
export function criteriaList(
  mode: 'selfCheck' | 'unmet',
  criteria: MissionView['criteria'],
  answers: Record<number, CriterionAnswer>,
) {
  if (mode === 'selfCheck') {
    return criteria.map((c) => {
      const a = answers[c.number];
      const note = a?.text.trim();
      return { criterion: c.number, met: a?.checked ?? false, ...(note ? { note } : {}) };
    });
  }
  return criteria
    .filter((c) => answers[c.number]?.checked)
    .map((c) => ({ criterion: c.number, reason: answers[c.number]!.text.trim() }));
}
