'use client';
// The post form's acceptance criteria (docs/api.md#criteria): a numbered list of one-line inputs, each
// removable, with a button to add one (at most MAX_CRITERIA). Empty inputs are left out when posting.
import { MAX_CRITERIA, MAX_CRITERION_LENGTH } from '@/lib/missions/criteria';

interface Props {
  criteria: string[];
  error?: string;
  disabled: boolean;
  onChange: (criteria: string[]) => void;
}

export function CriteriaInputs({ criteria, error, disabled, onChange }: Props) {
  const set = (index: number, text: string) => onChange(criteria.map((c, i) => (i === index ? text : c)));
  return (
    <fieldset className="stack" disabled={disabled} aria-describedby={error ? 'criteria-error' : 'criteria-hint'}>
      <legend>Acceptance criteria (optional)</legend>
      <p id="criteria-hint" className="hint">
        What the delivery must meet, one per line, numbered in this order. Once the mission is on the board they cannot
        change; a contest names the ones not met. Up to {MAX_CRITERIA}, {MAX_CRITERION_LENGTH} characters each.
      </p>
      {criteria.length > 0 && (
        <ol className="stack" data-testid="criteria-inputs">
          {criteria.map((text, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are their positions (criterion numbers)
            <li key={index} className="row">
              <label htmlFor={`criterion-${index + 1}`} className="visually-hidden">
                Criterion {index + 1}
              </label>
              <input
                id={`criterion-${index + 1}`}
                value={text}
                maxLength={MAX_CRITERION_LENGTH}
                aria-invalid={Boolean(error)}
                onChange={(e) => set(index, e.target.value)}
              />
              <button
                type="button"
                className="secondary"
                onClick={() => onChange(criteria.filter((_, i) => i !== index))}
              >
                Remove<span className="visually-hidden"> criterion {index + 1}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {criteria.length < MAX_CRITERIA && (
        <button type="button" className="secondary" onClick={() => onChange([...criteria, ''])}>
          Add a criterion
        </button>
      )}
      {error && (
        <p id="criteria-error" className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
