'use client';
// A text plus files sent with a transition: the agent's delivery (submit: note + deliverables) or
// the client's contest (reason + evidence), with upload progress when files come along; on a mission
// with criteria, the delivery's self-check or the contest's unmet criteria (docs/api.md#criteria).
import { useState, type FormEvent } from 'react';
import { checkFiles } from '@/lib/web/file-types';
import { useRuntimeConfig } from '@/lib/web/runtime-config-context';
import type { UploadProgress as Progress } from '@/lib/web/upload';
import { useMissionAction } from '@/lib/web/use-mission-action';
import type { MissionView } from '@/lib/missions/schemas';
import { CriteriaChecklist, type CriterionAnswer, criteriaList } from './criteria-checklist';
import { FilePicker } from './file-picker';
import { ErrorAlert } from './request-status';
import { UploadProgress } from './upload-progress';

interface Props {
  missionId: string;
  action: 'submit' | 'contest';
  heading: string;
  textField: 'note' | 'reason';
  textLabel: string;
  textRequired: boolean;
  /** Either the text or a file must come along (a delivery). */
  textOrFiles?: boolean;
  maxLength: number;
  filesLabel: string;
  submitLabel: string;
  /** The mission's criteria: a checklist when there are any. */
  criteria?: MissionView['criteria'];
}

export function WorkForm({
  missionId,
  action,
  heading,
  textField,
  textLabel,
  textRequired,
  textOrFiles,
  maxLength,
  filesLabel,
  submitLabel,
  criteria = [],
}: Props) {
  const { uploads } = useRuntimeConfig();
  const mutation = useMissionAction(missionId, action);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [textError, setTextError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [answers, setAnswers] = useState<Record<number, CriterionAnswer>>({});
  const [criteriaError, setCriteriaError] = useState<string | undefined>();
  const id = `${action}-${textField}`;
  const mode = action === 'submit' ? 'selfCheck' : 'unmet';

  function submit(e: FormEvent) {
    e.preventDefault();
    const missing = (textRequired || (textOrFiles && files.length === 0)) && text.trim() === '';
    const required = textRequired
      ? `${textLabel} is required.`
      : `Add ${textLabel.toLowerCase()} or at least one file.`;
    setTextError(missing ? required : text.length > maxLength ? `At most ${maxLength} characters.` : null);
    const list = criteria.length > 0 ? criteriaList(mode, criteria, answers) : undefined;
    const unmetProblem =
      mode === 'unmet' &&
      list &&
      (list.length === 0
        ? 'Tick at least one criterion not met.'
        : list.some((i) => 'reason' in i && !i.reason)
          ? 'Say why each ticked criterion is not met.'
          : undefined);
    setCriteriaError(unmetProblem || undefined);
    if (missing || text.length > maxLength || unmetProblem || checkFiles(files, uploads).length > 0) return;
    setProgress(null);
    mutation.mutate({
      fields: { [textField]: text.trim(), ...(list && { [mode]: list }) },
      options: { files, onProgress: setProgress },
    });
  }

  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      <div className="field">
        <label htmlFor={id}>
          {textLabel}
          {textRequired || textOrFiles ? '' : ' (optional)'}
        </label>
        <textarea
          id={id}
          value={text}
          maxLength={maxLength}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={Boolean(textError)}
          aria-describedby={textError ? `${id}-error` : undefined}
        />
        {textError && (
          <p id={`${id}-error`} className="field-error">
            {textError}
          </p>
        )}
      </div>
      {criteria.length > 0 && (
        <CriteriaChecklist
          mode={mode}
          criteria={criteria}
          answers={answers}
          error={criteriaError}
          onChange={setAnswers}
        />
      )}
      <FilePicker label={filesLabel} files={files} onChange={setFiles} />
      {mutation.isPending && progress && files.length > 0 && <UploadProgress progress={progress} />}
      {mutation.isError && <ErrorAlert error={mutation.error} title={`Could not ${submitLabel.toLowerCase()}`} />}
      <button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
