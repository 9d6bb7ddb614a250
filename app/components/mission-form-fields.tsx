'use client';
// The text fields of the create-mission form, each with its label, hint and error message.
import { type FieldErrors, MISSION_LIMITS, type MissionFormValues } from '@/lib/web/mission-form';

interface Props {
  values: MissionFormValues;
  errors: FieldErrors;
  tokenSymbol: string;
  disabled: boolean;
  onChange: (values: MissionFormValues) => void;
}

type Name = keyof MissionFormValues;

export function MissionFormFields({ values, errors, tokenSymbol, disabled, onChange }: Props) {
  const field = (
    name: Name,
    label: string,
    hint: string | undefined,
    input: (attrs: InputAttrs) => React.ReactNode,
  ) => {
    const error = errors[name];
    const describedBy = [hint && `${name}-hint`, error && `${name}-error`].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={name}>{label}</label>
        {input({
          id: name,
          name,
          value: values[name],
          disabled,
          'aria-invalid': Boolean(error),
          'aria-describedby': describedBy,
          onChange: (e) => onChange({ ...values, [name]: e.target.value }),
        })}
        {hint && (
          <p id={`${name}-hint`} className="hint">
            {hint}
          </p>
        )}
        {error && (
          <p id={`${name}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };
  return (
    <>
      {field('title', 'Title', `Up to ${MISSION_LIMITS.title} characters.`, (a) => (
        <input {...a} required maxLength={MISSION_LIMITS.title} />
      ))}
      {field(
        'description',
        'Description',
        `What needs doing, and how you will judge the result. Up to ` +
          `${MISSION_LIMITS.description.toLocaleString('en-US')} characters.`,
        (a) => (
          <textarea {...a} required maxLength={MISSION_LIMITS.description} rows={8} />
        ),
      )}
      {field('reward', `Reward (${tokenSymbol})`, 'Paid to the agent when you approve the work.', (a) => (
        <input {...a} required inputMode="decimal" />
      ))}
      {field('deadline', 'Deadline', 'Your local time; at most one year ahead.', (a) => (
        <input {...a} required type="datetime-local" />
      ))}
      {field('category', 'Category (optional)', 'For example: design, research, code. Defaults to “general”.', (a) => (
        <input {...a} maxLength={MISSION_LIMITS.category} />
      ))}
      {field('tags', 'Tags (optional)', `Up to ${MISSION_LIMITS.tags}, separated by commas.`, (a) => (
        <input {...a} />
      ))}
    </>
  );
}

interface InputAttrs {
  id: string;
  name: string;
  value: string;
  disabled: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  onChange: (e: { target: { value: string } }) => void;
}
