// OAuth fixtures through the real endpoints: a registered client, a user's consent (the form token
// is issued as the authorize page issues it), the code exchange with PKCE, and personal tokens.
import { createHash, randomBytes } from 'node:crypto';
import { POST as authorizeRoute } from '@/app/api/oauth/authorize/route';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { POST as tokenRoute } from '@/app/api/oauth/token/route';
import { POST as tokensRoute } from '@/app/api/tokens/route';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { documentRequester } from '@/lib/http/document-requester';
import { getKv } from '@/lib/kv';
import { viewAuthorization } from '@/lib/oauth/authorization-view';
import { issuerOf } from '@/lib/oauth/metadata';
import { call, type CallOptions, randomIp } from './http';
import { signIn } from './wallets';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const ORIGIN = 'https://app.example.com';
/**
 * The two resources a token can be issued for (docs/api.md#audience). A client names /api/mcp, or
 * nothing (the default), to use MCP, and /api for the REST routes: the fixtures ask for /api unless told.
 */
export const MCP_RESOURCE = `${ORIGIN}/api/mcp`;
export const API_RESOURCE = `${ORIGIN}/api`;

type Handler = Parameters<typeof call>[0];

/** A form POST as an OAuth client (or the consent page's browser) sends it; pairs may repeat a name. */
export function callForm(
  handler: Handler,
  fields: Record<string, string> | [string, string][],
  options: CallOptions = {},
) {
  return call(handler, {
    method: 'POST',
    ...options,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
  });
}

export async function registerClient(metadata: Record<string, unknown> = {}) {
  const response = await call(registerRoute, {
    body: { client_name: 'Test Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata },
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { client_id: string; client_secret?: string };
}

export function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type User = Awaited<ReturnType<typeof signIn>>;

/** The authorize request's parameters, as the client puts them in the URL. */
export function authorizeParams(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'missions:read missions:work earnings:claim',
    state: 'st-123',
    resource: API_RESOURCE,
    ...extra,
  };
}

/** Who opens the authorize page: the IP client metadata document fetches are counted against. */
export const requester = (ip = randomIp()) => documentRequester(config(), getKv(), ip);

/** What the authorize page does for a signed-in user: check the request, issue the form token. */
export async function consentView(user: User, params: Record<string, string>, ip?: string) {
  const view = await viewAuthorization(
    await getDb(),
    getKv(),
    issuerOf(config()),
    params,
    user.user.id,
    new Date(),
    requester(ip),
  );
  if (view.kind !== 'consent') throw new Error(`authorize page: ${view.kind} ${JSON.stringify(view)}`);
  return view;
}

export const consentFormToken = async (user: User, params: Record<string, string>) =>
  (await consentView(user, params)).formToken;

/**
 * The consent form's POST from the browser: cookie, same-site Origin, the form token, a decision.
 * `scope` is the boxes left checked, space-separated here and sent as one `scope` field each, as the
 * browser sends checkboxes (docs/api.md#choosing-scopes); leaving them all checked is the authorization
 * request's own `scope`.
 */
export function postConsent(
  user: User,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: ORIGIN },
) {
  const { scope, ...rest } = fields;
  const checked = (scope ?? '')
    .split(' ')
    .filter(Boolean)
    .map((value): [string, string] => ['scope', value]);
  return callForm(authorizeRoute, [...Object.entries(rest), ...checked], { cookie: user.cookie, headers });
}

/**
 * The page opened and approved; `chosen` the scopes left checked (space-separated), by default every one offered
 * (those asked for and those the grant holds already).
 */
export async function approve(user: User, params: Record<string, string>, chosen?: string) {
  const view = await consentView(user, params);
  const scope = chosen ?? view.offered.join(' ');
  const answer = await postConsent(user, { ...params, scope, form_token: view.formToken, decision: 'approve' });
  if (answer.status !== 303) throw new Error(`consent: ${answer.status} ${JSON.stringify(answer.body)}`);
  return new URL(answer.headers.get('location')!);
}

export const exchange = (fields: Record<string, string>, options: CallOptions = {}) =>
  callForm(tokenRoute, fields, options);

/** A user connected to a fresh client with `scope`, for `resource`: their tokens as the client holds them. */
export async function connect(
  scope = 'missions:read missions:work earnings:claim',
  user?: User,
  resource = API_RESOURCE,
) {
  const who = user ?? (await signIn());
  const client = await registerClient();
  const { verifier, challenge } = pkce();
  const location = await approve(who, authorizeParams(client.client_id, challenge, { scope, resource }));
  const answer = await exchange({
    grant_type: 'authorization_code',
    code: location.searchParams.get('code')!,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: client.client_id,
    resource,
  });
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`);
  return {
    user: who,
    client,
    tokens: answer.body as { access_token: string; refresh_token: string; scope: string; expires_in: number },
  };
}

export async function personalToken(user: User, scopes: string[], name = 'headless agent') {
  const answer = await call(tokensRoute, { method: 'POST', token: user.token, body: { name, scopes } });
  if (answer.status !== 201) throw new Error(`tokens: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { token: string; grant: { id: string } };
}
