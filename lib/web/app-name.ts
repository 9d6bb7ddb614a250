// Who asked for a confirmation, as the card names it (docs/api.md#confirmation-terms): a personal token by the
// name the person gave it; an OAuth app by its own claim, and "taskmarket" is ours — an app that calls itself so
// (in any case, spacing or punctuation, after NFKC) is shown without its name.
import type { ConfirmationView } from '@/lib/confirmations/schemas';

export function appNameOf(grant: Pick<ConfirmationView['grant'], 'kind' | 'name'>): {
  name: string;
  reserved: boolean;
} {
  if (grant.kind !== 'oauth') return { name: grant.name, reserved: false };
  const letters = grant.name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  return letters.includes('taskmarket') ? { name: 'An app', reserved: true } : { name: grant.name, reserved: false };
}
