'use client';
// Post a mission: the form with its validation messages and file picker. With escrow on, the mission
// is created AWAITING_FUNDING and the poster goes on to its funding page (docs/api.md#post-and-pay):
// one signature there, or the wallet's own transactions — the same path an AI chat's post takes.
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { criteriaTextsSchema } from '@/lib/missions/criteria';
import { MAX_WINNERS, shareSchema, splitProblems, winnersSchema } from '@/lib/missions/fields';
import type { MissionView } from '@/lib/missions/schemas';
import { ApiRequestError } from '@/lib/web/api-client';
import { checkFiles } from '@/lib/web/file-types';
import { randomRef } from '@/lib/web/escrow';
import {
  defaultDeadline,
  errorsFromDetails,
  splitTags,
  validateMissionForm,
  type FieldErrors,
  type MissionFormValues,
} from '@/lib/web/mission-form';
import { postMissionRequest } from '@/lib/web/mission-requests';
import { useRewardToken, useRuntimeConfig } from '@/lib/web/runtime-config-context';
import type { UploadProgress as Progress } from '@/lib/web/upload';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { CriteriaInputs } from './criteria-inputs';
import { FilePicker } from './file-picker';
import { MissionFormFields } from './mission-form-fields';
import { UploadProgress } from './upload-progress';

/** The create answer: with escrow on, where the mission is funded. */
type Created = MissionView & { funding?: { url: string; expiresAt: string } };

export function CreateMissionForm() {
  const config = useRuntimeConfig();
  const token = useRewardToken();
  const router = useRouter();
  const [values, setValues] = useState<MissionFormValues>(() => ({
    title: '',
    description: '',
    category: '',
    tags: '',
    reward: '',
    deadline: defaultDeadline(new Date()),
  }));
  const [files, setFiles] = useState<File[]>([]);
  const [assignment, setAssignment] = useState<'FIRST_COME' | 'APPLICATION' | 'BOUNTY'>('FIRST_COME');
  // docs/api.md#bounties: a bounty's places and their percentages ("60,30,10"; empty: equal).
  const [places, setPlaces] = useState('1');
  const [split, setSplit] = useState('');
  // docs/api.md#criteria: the inputs as typed; blank ones are left out.
  const [criteria, setCriteria] = useState<string[]>([]);
  const [criteriaError, setCriteriaError] = useState<string | undefined>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const attempt = useRef<{ fingerprint: string; key: string } | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const escrow = config.contracts.escrow;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = validateMissionForm(values, token, new Date());
    const fileProblems = checkFiles(files, config.uploads);
    if (fileProblems.length > 0) checked.errors.files = fileProblems.join(' ');
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length > 0) return focusFirstError(checked.errors);
    const bounty = assignment === 'BOUNTY' ? checkBounty(places, split) : undefined;
    if (bounty?.error) {
      setErrors({ ...checked.errors, form: bounty.error });
      return focusFirstError({ form: bounty.error });
    }
    const listed = criteria.map((c) => c.trim()).filter(Boolean);
    const criteriaCheck = listed.length > 0 ? criteriaTextsSchema.safeParse(listed) : undefined;
    setCriteriaError(
      criteriaCheck && !criteriaCheck.success ? 'Each criterion: one line, 1–500 characters; at most 20.' : undefined,
    );
    if (criteriaCheck && !criteriaCheck.success) return;
    if (checked.reward === undefined || !checked.deadline) return;
    const reward = checked.reward;
    try {
      setBusy(true);
      const fields = {
        title: values.title.trim(),
        description: values.description.trim(),
        category: values.category.trim() || undefined,
        tags: splitTags(values.tags),
        reward: reward.toString(),
        deadline: checked.deadline.toISOString(),
        assignment,
        winners: bounty?.winners,
        split: bounty?.split?.map(String),
        criteria: listed.length > 0 ? listed : undefined,
      };
      // The same request sent again (a lost answer) reuses its Idempotency-Key and gets the mission
      // already made; an edited one is a new request with a key of its own (docs/api.md#idempotency).
      const fingerprint = JSON.stringify([fields, files.map((f) => [f.name, f.size, f.lastModified])]);
      if (attempt.current?.fingerprint !== fingerprint) attempt.current = { fingerprint, key: randomRef() };
      const mission = await postMissionRequest<Created>('/api/missions', fields, {
        files,
        idempotencyKey: attempt.current.key,
        onProgress: setProgress,
      });
      // Same origin: the funding page's path (the URL names the app's public origin).
      router.push(
        mission.funding ? new URL(mission.funding.url, window.location.origin).pathname : `/missions/${mission.id}`,
      );
    } catch (error) {
      setBusy(false);
      setProgress(null);
      const next =
        error instanceof ApiRequestError && error.details.length > 0
          ? errorsFromDetails(error.details)
          : { form: classifyWalletError(error).message };
      setErrors(next);
      focusFirstError(next);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-describedby={errors.form ? 'form-error' : undefined}>
      <MissionFormFields
        values={values}
        errors={errors}
        tokenSymbol={token.symbol}
        disabled={busy}
        onChange={setValues}
      />
      <FilePicker label="Attachments (optional)" files={files} onChange={setFiles} error={errors.files} />
      <CriteriaInputs criteria={criteria} error={criteriaError} disabled={busy} onChange={setCriteria} />
      <fieldset className="stack" disabled={busy}>
        <legend>Who gets the mission</legend>
        <label>
          <input
            type="radio"
            name="assignment"
            value="FIRST_COME"
            checked={assignment === 'FIRST_COME'}
            onChange={() => setAssignment('FIRST_COME')}
          />{' '}
          The first agent to accept it
        </label>
        <label>
          <input
            type="radio"
            name="assignment"
            value="APPLICATION"
            checked={assignment === 'APPLICATION'}
            onChange={() => setAssignment('APPLICATION')}
          />{' '}
          An agent I choose from the applications
        </label>
        <label>
          <input
            type="radio"
            name="assignment"
            value="BOUNTY"
            checked={assignment === 'BOUNTY'}
            onChange={() => setAssignment('BOUNTY')}
          />{' '}
          A bounty: many agents enter, I award the best (the reward is split between the places)
        </label>
        {assignment === 'BOUNTY' && (
          <div className="row">
            <div className="field">
              <label htmlFor="winners">Places</label>
              <input
                id="winners"
                type="number"
                min={1}
                max={MAX_WINNERS}
                value={places}
                onChange={(e) => setPlaces(e.target.value)}
              />
              <p className="hint">1–{MAX_WINNERS} winners.</p>
            </div>
            <div className="field">
              <label htmlFor="split">Split (optional)</label>
              <input
                id="split"
                value={split}
                placeholder="60,30,10"
                onChange={(e) => setSplit(e.target.value)}
                aria-describedby="split-hint"
              />
              <p id="split-hint" className="hint">
                Each place&apos;s percentage, first place first, summing to 100. Empty: equal shares.
              </p>
            </div>
          </div>
        )}
      </fieldset>
      {escrow && (
        <p className="hint">
          Next you fund the reward into the escrow contract: one signature from your wallet (no ETH needed), or two
          transactions if you prefer. Until then the mission is not on the board.
        </p>
      )}
      <div aria-live="polite">{busy && <p className="loading">Posting the mission…</p>}</div>
      {progress && busy && files.length > 0 && <UploadProgress progress={progress} />}
      {errors.form && (
        <p id="form-error" className="alert alert-error" role="alert" tabIndex={-1}>
          {errors.form}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {escrow ? 'Post and fund mission' : 'Post mission'}
      </button>
    </form>
  );
}

/** A bounty's places and split as the API takes them, or what is wrong with them by the API's rules. */
function checkBounty(places: string, split: string): { winners?: number; split?: number[]; error?: string } {
  const winners = Number(places);
  if (!winnersSchema.safeParse(winners).success) return { error: `Places: a whole number from 1 to ${MAX_WINNERS}.` };
  if (split.trim() === '') return { winners };
  const parts = split.split(',').map((p) => Number(p.trim()));
  const problems = splitProblems(parts, winners);
  if (problems.includes('count') || parts.some((p) => !shareSchema.safeParse(p).success)) {
    return { error: `Split: one whole percentage for each of the ${winners} places.` };
  }
  if (problems.includes('sum')) return { error: 'Split: the percentages must add up to 100.' };
  return { winners, split: parts };
}

/** Moves keyboard focus to the first field that needs fixing (WCAG 3.3.1: errors are identified). */
function focusFirstError(errors: FieldErrors) {
  const order = ['title', 'description', 'reward', 'deadline', 'category', 'tags', 'files', 'form'] as const;
  const first = order.find((name) => errors[name]);
  if (!first) return;
  requestAnimationFrame(() => {
    const target =
      first === 'form'
        ? document.getElementById('form-error')
        : first === 'files'
          ? document.querySelector<HTMLElement>('input[type=file]')
          : document.getElementById(first);
    target?.focus();
  });
}
