// One delivery attempt (docs/api.md#webhooks): signed with Standard Webhooks (webhook-id,
// webhook-timestamp, webhook-signature), to an address checked now, no redirects, and one overall
// deadline — resolving, connecting, TLS, the status line and the headers, ATTEMPT_DEADLINE_MS in
// all. A socket timeout alone is an idle timeout: a receiver writing a byte every few seconds
// never trips it and held a delivery run for hours.
import 'server-only';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config';
import { metrics } from '../observability/metrics';
import { SpanKind, inSpan } from '../observability/tracing';
import { abortable, pinnedRequest } from '../outbound/pinned-request';
import { unsealSecret } from './secrets';
import { checkWebhookUrl, resolveTarget } from '../outbound/url-guard';

export const ATTEMPT_DEADLINE_MS = 5_000;

export interface Attempt {
  id: string;
  event: string;
  payload: Record<string, unknown>;
  url: string;
  sealedSecret: string;
}

export type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * One attempt in its span (event and status, never the URL or payload), counted by outcome (docs/api.md#observability).
 */
export function sendAttempt(cfg: Config, attempt: Attempt): Promise<Outcome> {
  return inSpan(
    'webhook deliver',
    { kind: SpanKind.CLIENT, attributes: { 'taskmarket.webhook.event': attempt.event } },
    async (span) => {
      const outcome = await send(cfg, attempt);
      if (outcome.status !== null) span?.setAttribute('http.response.status_code', outcome.status);
      span?.setAttribute('taskmarket.webhook.outcome', outcome.ok ? 'delivered' : 'failed');
      metrics().webhookAttempts.inc({ outcome: outcome.ok ? 'delivered' : 'failed' });
      return outcome;
    },
  );
}

async function send(cfg: Config, attempt: Attempt): Promise<Outcome> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timed out')), ATTEMPT_DEADLINE_MS);
  try {
    const allowPrivate = cfg.webhooks.allowPrivate;
    const url = checkWebhookUrl(attempt.url, allowPrivate);
    const target = await abortable(resolveTarget(url, allowPrivate), deadline.signal);
    const body = JSON.stringify(attempt.payload);
    const sentAt = new Date();
    const signature = new Webhook(unsealSecret(cfg, attempt.sealedSecret)).sign(attempt.id, sentAt, body);
    const status = await post(url, target, body, deadline.signal, {
      'content-type': 'application/json',
      'user-agent': 'taskmarket-webhooks/1',
      'webhook-id': attempt.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    });
    return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` };
  } catch (error) {
    const reason = (error as { details?: string[] }).details?.[0] ?? (error as Error).message;
    return { ok: false, status: null, error: reason.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One POST to the checked address. Settles at the status line; the body is not read — the
 * response is destroyed, so a receiver trickling one holds nothing of ours.
 */
async function post(
  url: URL,
  target: { address: string; family: number },
  body: string,
  signal: AbortSignal,
  headers: Record<string, string>,
): Promise<number> {
  const response = await pinnedRequest(url, target, { method: 'POST', headers, body, signal });
  response.destroy();
  return response.statusCode ?? 0;
}
