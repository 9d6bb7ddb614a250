// A release's HTTP answer (docs/api.md#confirmations): the mission as released, or 202 with the
// confirmation the person decides — nothing changed yet.
import { type ReleaseAnswer, confirmationRequestSchema } from '@/lib/confirmations';
import type { CustomError } from '@/lib/http/operation-doc';
import { json, jsonText } from '@/lib/http/route';

/** The 202 of a release route, as its OpenAPI entry lists it. */
export const RELEASE_WAITS: CustomError = {
  status: 202,
  description: 'The release waits for the person: nothing changed until they approve at `url`',
  schema: confirmationRequestSchema,
};

export function releaseResponse(answer: ReleaseAnswer): Response {
  return 'confirmation' in answer
    ? json({ confirmation: answer.confirmation }, { status: 202 })
    : jsonText(answer.mission);
}
