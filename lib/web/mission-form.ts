// The create-mission form's rules, checked in the browser before anything is signed or sent — the
// API's own schemas (docs/api.md#missions), so the server's 400 is the exception, not the way people
// learn them — and the API's `details` ("field: problem") mapped back to the fields.
import { categorySchema, tagSchema } from '../fields';
import { latestDeadline, MAX_TAGS, missionDescriptionSchema, missionTitleSchema } from '../missions/fields';
import { parseAmount, type TokenInfo } from './money';

export interface MissionFormValues {
  title: string;
  description: string;
  category: string;
  tags: string;
  reward: string;
  deadline: string;
}

export type FieldErrors = Partial<Record<keyof MissionFormValues | 'files' | 'form', string>>;

/** The lengths the form's inputs allow, read from the schemas the API validates with. */
export const MISSION_LIMITS = {
  title: missionTitleSchema.maxLength!,
  description: missionDescriptionSchema.maxLength!,
  category: categorySchema.maxLength!,
  tag: tagSchema.maxLength!,
  tags: MAX_TAGS,
};

export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export function validateMissionForm(
  v: MissionFormValues,
  token: TokenInfo,
  now: Date,
): { errors: FieldErrors; reward?: bigint; deadline?: Date } {
  const errors: FieldErrors = {};
  const title = v.title.trim();
  if (!title) errors.title = 'Give the mission a title.';
  else if (title.length > MISSION_LIMITS.title)
    errors.title = `At most ${MISSION_LIMITS.title} characters (${title.length} now).`;
  const description = v.description.trim();
  if (!description) errors.description = 'Describe what needs to be done.';
  else if (description.length > MISSION_LIMITS.description) {
    errors.description =
      `At most ${MISSION_LIMITS.description.toLocaleString('en-US')} characters ` + `(${description.length} now).`;
  }
  const category = v.category.trim();
  if (category && !categorySchema.safeParse(category).success)
    errors.category = `Up to ${MISSION_LIMITS.category} letters, digits, spaces, _ or -.`;
  const tags = splitTags(v.tags);
  if (tags.length > MISSION_LIMITS.tags) errors.tags = `At most ${MISSION_LIMITS.tags} tags (${tags.length} now).`;
  else if (tags.some((t) => !tagSchema.safeParse(t).success))
    errors.tags = `Each tag: up to ${MISSION_LIMITS.tag} letters, digits, spaces or . _ + # -.`;
  const amount = parseAmount(v.reward, token);
  if (!amount.ok) errors.reward = amount.reason;
  const deadline = v.deadline ? new Date(v.deadline) : undefined;
  if (!deadline || Number.isNaN(deadline.getTime())) errors.deadline = 'Choose a deadline.';
  else if (deadline <= now) errors.deadline = 'The deadline must be in the future.';
  else if (deadline > latestDeadline(now)) errors.deadline = 'The deadline can be at most one year ahead.';
  return { errors, reward: amount.ok ? amount.value : undefined, deadline };
}

/** The API's validation details by form field; anything unmatched goes to the form as a whole. */
export function errorsFromDetails(details: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  const fields = ['title', 'description', 'category', 'tags', 'reward', 'deadline', 'files'] as const;
  for (const detail of details) {
    const [path = '', ...rest] = detail.split(':');
    const field = fields.find((f) => path.trim().split('.')[0] === f);
    const key = field ?? (path.trim() === 'onChainTaskId' ? 'reward' : 'form');
    const message = field || key === 'reward' ? rest.join(':').trim() : detail;
    errors[key] = errors[key] ? `${errors[key]} ${message}` : message;
  }
  return errors;
}

/** A default deadline a week ahead, in the format of <input type="datetime-local">. */
export function defaultDeadline(now: Date): string {
  const d = new Date(now.getTime() + 7 * 86_400_000);
  d.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
