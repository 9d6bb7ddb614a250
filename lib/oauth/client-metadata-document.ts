// Clients identified by a Client ID Metadata Document (docs/api.md#client-id-metadata-documents;
// draft-ietf-oauth-client-id-metadata-document): the client_id is an https URL, and the JSON there
// is its registration. We fetch it through the webhook address guard (a stranger chooses the URL:
// public addresses only, no redirects, ≤ 5 KB, 5 s), keep what we checked in the shared KV for as
// long as its Cache-Control allows (at most 24 h), and admit each fetch through the requester's
// per-IP limit and then its global one, which lib/http/document-requester.ts supplies (lib/http sits
// above this floor).
import 'server-only';
import { createHash } from 'node:crypto';
import type { Config } from '../config';
import { ApiError, OAuthError } from '../errors';
import type { Kv } from '../kv';
import { guardedGet } from '../outbound/guarded-get';
import { checkWebhookUrl } from '../outbound/url-guard';
import { checkClientMetadata } from './clients';

export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const DOCUMENT_DEADLINE_MS = 5_000;
export const MAX_DOCUMENT_CACHE_MS = 24 * 3_600_000;

/**
 * Who asks for a document: the configuration, the KV, and the limits a fetch must pass (each throws
 * 429): the asking IP's, then the one for all IPs together.
 */
export interface Requester {
  cfg: Config;
  kv: Kv;
  admitFetch: (who: 'ip' | 'everyone') => Promise<unknown>;
}

/** A client as its metadata document describes it (its id is the document's URL). */
export interface DocumentClient {
  id: string;
  name: string;
  redirectUris: string[];
  clientUri: string | null;
}

/** Why the document could not be used: shown on our page, never sent to a redirect URI. */
export class ClientDocumentError extends Error {}

const cacheKey = (url: URL) => `oauth-cimd:${createHash('sha256').update(url.href).digest('base64url')}`;

export async function clientFromDocument(requester: Requester, url: URL): Promise<DocumentClient> {
  const { cfg, kv } = requester;
  const cached = await kv.get(cacheKey(url));
  if (cached) return JSON.parse(cached) as DocumentClient;
  // A URL the address guard refuses on its face (http, credentials, a loopback or private literal) is
  // refused before any limit counts it: junk URLs spend nobody's budget (docs/api.md#client-id-metadata-documents).
  try {
    checkWebhookUrl(url.href, cfg.webhooks.allowPrivate);
  } catch (error) {
    throw fault(
      `could not be fetched (${((error as ApiError).details?.[0] ?? (error as Error).message).slice(0, 200)})`,
    );
  }
  await admit(requester, 'ip', 'Too many client metadata documents fetched from your address; try again later.');
  await admit(
    requester,
    'everyone',
    'Too many client metadata documents fetched from everywhere this hour; try again later.',
  );
  let response;
  try {
    response = await guardedGet(cfg, url, {
      maxBytes: MAX_DOCUMENT_BYTES,
      deadlineMs: DOCUMENT_DEADLINE_MS,
      accept: 'application/json',
    });
  } catch (error) {
    const reason = (error as { details?: string[] }).details?.[0] ?? (error as Error).message;
    throw fault(`could not be fetched (${reason.slice(0, 200)})`);
  }
  if (response.status !== 200) throw fault(`answered HTTP ${response.status}, not 200`);
  const type = String(response.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type))
    throw fault('is not application/json');
  let document: unknown;
  try {
    document = JSON.parse(response.body);
  } catch {
    throw fault('is not valid JSON');
  }
  const client = checkDocument(document, url);
  const lifetime = cacheLifetime(response.headers['cache-control'], response.headers.age);
  if (lifetime > 0) await kv.put(cacheKey(url), JSON.stringify(client), lifetime);
  return client;
}

async function admit(requester: Requester, who: 'ip' | 'everyone', refusal: string): Promise<void> {
  try {
    await requester.admitFetch(who);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw new ClientDocumentError(refusal);
    throw error;
  }
}

function checkDocument(document: unknown, url: URL): DocumentClient {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw fault('is not a JSON object');
  const fields = document as Record<string, unknown>;
  // The draft: simple string comparison with the URL it was fetched from.
  if (fields.client_id !== url.href) throw fault('names another client_id');
  // The draft: no shared secret can be established through a document, so the client is public (PKCE).
  if ('client_secret' in fields || 'client_secret_expires_at' in fields) throw fault('must not carry a client_secret');
  let checked;
  try {
    checked = checkClientMetadata(document, 'none');
  } catch (error) {
    if (error instanceof OAuthError) throw fault(error.message);
    throw error;
  }
  if (checked.method !== 'none') throw fault('token_endpoint_auth_method must be none');
  return {
    id: url.href,
    name: checked.name,
    redirectUris: checked.redirectUris,
    clientUri: checked.clientUri ?? null,
  };
}

const fault = (problem: string) => new ClientDocumentError(`The app's client metadata document ${problem}.`);

/**
 * How long a shared cache may keep the answer (RFC 9111 §5.2.2): s-maxage, else max-age, less its
 * Age; nothing for no-store, no-cache, private or no directive. At most MAX_DOCUMENT_CACHE_MS.
 */
export function cacheLifetime(cacheControl: string | string[] | undefined, age: string | string[] | undefined): number {
  const directives = new Map<string, string>();
  for (const part of [cacheControl ?? []].flat().join(',').split(',')) {
    const [name, value = ''] = part.trim().toLowerCase().split('=');
    if (name) directives.set(name, value.replace(/^"|"$/g, ''));
  }
  if (['no-store', 'no-cache', 'private'].some((name) => directives.has(name))) return 0;
  const seconds = Number(directives.get('s-maxage') ?? directives.get('max-age'));
  if (!Number.isInteger(seconds) || seconds <= 0) return 0;
  const aged = seconds - (Number([age ?? '0'].flat()[0]) || 0);
  return Math.min(Math.max(0, aged) * 1000, MAX_DOCUMENT_CACHE_MS);
}
