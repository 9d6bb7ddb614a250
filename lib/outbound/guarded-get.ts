// A GET through the webhook address guard (url-guard.ts), for a document a stranger names — a client
// metadata document (docs/api.md#client-id-metadata-documents): https only, public addresses only
// (resolved now and connected to exactly), no redirects followed, at most `maxBytes` read and one
// overall deadline for the lot — DNS, connect, TLS, headers and body.
import 'server-only';
import { rootCertificates } from 'node:tls';
import type { Config } from '../config';
import { abortable, pinnedRequest } from './pinned-request';
import { checkWebhookUrl, resolveTarget } from './url-guard';

export interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Throws an Error whose message says what went wrong (shown to the person on our page). */
export async function guardedGet(
  cfg: Config,
  url: URL,
  options: { maxBytes: number; deadlineMs: number; accept: string },
): Promise<GuardedResponse> {
  if (url.protocol !== 'https:') throw new Error('not an https URL');
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`no complete answer within ${options.deadlineMs / 1000} s`)),
    options.deadlineMs,
  );
  try {
    const allowPrivate = cfg.webhooks.allowPrivate;
    checkWebhookUrl(url.href, allowPrivate);
    const target = await abortable(resolveTarget(url, allowPrivate), deadline.signal);
    const testCa = cfg.webhooks.testCa;
    const response = await pinnedRequest(url, target, {
      method: 'GET',
      headers: { accept: options.accept, 'user-agent': 'taskmarket/1' },
      signal: deadline.signal,
      ...(testCa && { ca: [...rootCertificates, testCa] }),
    });
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > options.maxBytes) {
      response.destroy();
      throw new Error(`larger than ${options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) {
        response.destroy();
        throw new Error(`larger than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return {
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
  } catch (error) {
    throw deadline.signal.aborted ? (deadline.signal.reason as Error) : error;
  } finally {
    clearTimeout(timer);
  }
}
