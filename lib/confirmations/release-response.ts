// A release's HTTP answer (docs/api.md#confirmations): the mission as released, or 202 with the
// confirmation the person decides — nothing changed yet.
import 'server-only';
import { json, jsonText } from '../http/route';
import type { ReleaseAnswer } from './release';

export function releaseResponse(answer: ReleaseAnswer): Response {
  return 'confirmation' in answer
    ? json({ confirmation: answer.confirmation }, { status: 202 })
    : jsonText(answer.mission);
}
