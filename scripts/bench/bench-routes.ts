// The throw-away route handlers of the benchmark build (scripts/bench/app-build.ts): the floors —
// routes doing only the unavoidable I/O of an endpoint —, the peer, the SIWE stack as its
// libraries' documentation shows it, and a switch for tracing. One build carries them all, for
// bench, bench:floors and bench:peer.
import { buildBenchApp, unminifiedConfig } from './app-build';

const ok = `Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })`;
const DB = `import { sql } from 'drizzle-orm';\nimport { getDb } from '@/lib/db/client';`;
const KV = `import { getKv } from '@/lib/kv';`;
// ~14 KB of missions' JSON, a quote in every ten bytes as in a real page: what an MCP floor answers
// as a tool result's text, so its escaping is counted (a page of 'x' has nothing to escape).
const MISSION_JSON =
  '{"id":"0b6f3c1e-7d2a-4a51-9e0f-3c2b1a0d9e8f","title":"Translate a product page into German","reward":"25000000"},';
const JSON_PAGE = `select '{"items":[' || repeat('${MISSION_JSON}', 123) || '{}],"nextCursor":null}' as page`;

/** What Next.js and single round trips cost (bench:floors). */
const GENERIC_FLOORS: Record<string, string> = {
  'bench-floor/post-body': `export const POST = async (request: Request) => { await request.json(); return ${ok}; };`,
  'bench-floor/kv': `${KV}\nexport const GET = async () => { await getKv().get('floor'); return ${ok}; };`,
  'bench-floor/db':
    `${DB}\n` + `export const GET = async () => { await (await getDb()).execute(sql\`select 1\`); return ${ok}; };`,
  // A page of 20 missions is about 14 KB of JSON: what answering that much costs.
  'bench-floor/page':
    `const page = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, text: 'x'.repeat(700) })),` +
    ` nextCursor: null });\nexport const GET = async () => new Response(page, ` +
    `{ headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });`,
  'bench-floor/kv-and-db':
    `${DB}\n${KV}\nexport const GET = async () => { ` +
    `await Promise.all([getKv().get('floor'), getDb().then((db) => db.execute(sql\`select 1\`))]); return ${ok}; };`,
};

/**
 * Each endpoint's own floor: the I/O no implementation of it can skip, and nothing else (no
 * validation, no crypto, no rate limit). docs/performance.md defines them in words.
 */
const ENDPOINT_FLOORS: Record<string, string> = {
  // nonce: a POST with a small JSON body, and the nonce stored with its life (one KV write).
  'bench-floor/nonce': `import { randomBytes } from 'node:crypto';\n${KV}
export const POST = async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  const nonce = randomBytes(16).toString('hex');
  await getKv().put(\`floor:nonce:\${nonce}\`, address, 300_000);
  return Response.json({ nonce }, { headers: { 'Cache-Control': 'no-store' } });
};`,
  // nonce's floor with what docs/api.md asks of every nonce besides: the caller's hit counted against
  // the rate limit and the nonce stored only under the cap of live nonces, both in the floor's one
  // KV round trip (the same atomic step as lib/auth/nonces.ts). No validation, no wrapper. What it
  // reaches against bench-floor/nonce bounds what any nonce can.
  'bench-floor/nonce-bound': `import { randomBytes } from 'node:crypto';\n${KV}
import { config } from '@/lib/config';
const charge = { key: 'floor:limit:nonce', windowMs: 60_000, max: 1e9 };
export const POST = async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  const nonce = randomBytes(16).toString('hex');
  const live = config().nonces.maxLive;
  await getKv().hitThenPutCapped(charge, \`floor:nonce:\${nonce}\`, address, 300_000, 'floor:nonces:live', live);
  return Response.json({ nonce }, { headers: { 'Cache-Control': 'no-store' } });
};`,
  // me: the caller named by the Authorization header (here the user's id itself, no token to
  // check), the revocation read (KV) and the user's row (database), together.
  'bench-floor/me': `${DB}\n${KV}
export const GET = async (request: Request) => {
  const id = (request.headers.get('authorization') ?? '').slice('Bearer '.length);
  const [revoked, rows] = await Promise.all([
    getKv().get(\`floor:revoked:\${id}\`),
    getDb().then((db) => db.execute(sql\`select id, wallet_address, role, display_name from users where id = \${id}\`)),
  ]);
  const user = (rows as unknown as unknown[])[0] ?? null;
  return Response.json({ revoked, user }, { headers: { 'Cache-Control': 'no-store' } });
};`,
  // The same, with what the API asks of every answer besides (docs/api.md#observability, #limits):
  // observed (the request id, the span, the request metrics) and the RateLimit-* headers of the hit.
  // Against bench-floor/nonce-bound: what that per-request work costs; the endpoint against it: ours.
  'bench-floor/nonce-observed': `import { randomBytes } from 'node:crypto';\n${KV}
import { config } from '@/lib/config';
import { observed } from '@/lib/http/observed';
const charge = { key: 'floor:limit:nonce', windowMs: 60_000, max: 1e9 };
export const POST = observed(async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  const nonce = randomBytes(16).toString('hex');
  const live = config().nonces.maxLive;
  const { hit } = await getKv().hitThenPutCapped(
    charge, \`floor:nonce:\${nonce}\`, address, 300_000, 'floor:nonces:live', live,
  );
  return Response.json({ nonce }, { headers: {
    'Cache-Control': 'no-store',
    'RateLimit-Limit': String(charge.max),
    'RateLimit-Remaining': String(charge.max - hit.count),
    'RateLimit-Reset': String(Math.ceil(hit.resetMs / 1000)),
  } });
});`,
  // me's floor reading what me answers: the user's row with its passport joined (one database read).
  // What it reaches against bench-floor/me bounds what any me can.
  'bench-floor/me-bound': `${DB}\n${KV}
export const GET = async (request: Request) => {
  const id = (request.headers.get('authorization') ?? '').slice('Bearer '.length);
  const [revoked, rows] = await Promise.all([
    getKv().get(\`floor:revoked:\${id}\`),
    getDb().then((db) => db.execute(sql\`select u.id, u.wallet_address, u.role, p.status, p.token_id, p.tx_hash
      from users u left join passports p on p.user_id = u.id where u.id = \${id}\`)),
  ]);
  const user = (rows as unknown as unknown[])[0] ?? null;
  return Response.json({ revoked, user }, { headers: { 'Cache-Control': 'no-store' } });
};`,
  // verify: a POST with a SIWE-sized body, the nonce taken out of the KV (one atomic take), then
  // the signer's row read (database). No parse, no signature check, no token.
  'bench-floor/verify': `${DB}\n${KV}
export const POST = async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  await getKv().take(\`floor:nonce:\${Math.random()}\`, 'floor:live');
  const rows = await (await getDb()).execute(
    sql\`select id, wallet_address, role from users where wallet_address = \${address}\`,
  );
  const user = (rows as unknown as unknown[])[0] ?? null;
  return Response.json({ user }, { headers: { 'Cache-Control': 'no-store' } });
};`,
  // verify's floor with the crypto every sign-in must do, each done as cheaply as this machine can:
  // the EIP-191 hash and the signer's recovery (libsecp256k1), an HS256 token signed synchronously
  // with node:crypto, the session cookie sealed (lib/auth/iron-seal.ts). No parse, no checks. What
  // it reaches against bench-floor/verify bounds what any verify can.
  'bench-floor/verify-crypto': `${DB}\n${KV}
import { createHmac, randomUUID } from 'node:crypto';
import { hashMessage, type Hex } from 'viem';
import { recoverSigner } from '@/lib/auth/recover-address';
import { sealIronSession } from '@/lib/auth/iron-seal';
const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
type Body = { message: string; signature: Hex; address: string };
export const POST = async (request: Request) => {
  const { message, signature, address } = (await request.json()) as Body;
  await getKv().take(\`floor:nonce:\${Math.random()}\`, 'floor:live');
  const rows = (await (await getDb()).execute(
    sql\`select id, wallet_address, role from users where wallet_address = \${address}\`,
  )) as unknown as { id: string; role: string }[];
  const signer = await recoverSigner(hashMessage(message), signature);
  const now = Math.floor(Date.now() / 1000);
  const role = rows[0]?.role;
  const payload = { sub: rows[0]?.id, addr: address, role, jti: randomUUID(), iat: now, exp: now + 3600 };
  const claims = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', process.env.JWT_SECRET!).update(\`\${header}.\${claims}\`).digest('base64url');
  const token = \`\${header}.\${claims}.\${mac}\`;
  const cookie = sealIronSession({ token }, process.env.SESSION_SECRET!, 3600);
  const headers = { 'Cache-Control': 'no-store', 'Set-Cookie': \`floor=\${cookie}; Path=/; HttpOnly\` };
  return Response.json({ token, user: rows[0] ?? null, signer }, { headers });
};`,
  // The crypto bound with its token signed by jose (over WebCrypto, the key imported once), as ours
  // was until lib/auth/jwt-hs256.ts. Against bench-floor/verify-crypto: what the library costs a sign-in.
  'bench-floor/verify-jose': `${DB}\n${KV}
import { hashMessage, type Hex } from 'viem';
import { recoverSigner } from '@/lib/auth/recover-address';
import { sealIronSession } from '@/lib/auth/iron-seal';
import { SignJWT } from 'jose';
// Imported on the first request: \`next build\` evaluates the module without the instance's secret.
let key: Promise<CryptoKey> | undefined;
type Body = { message: string; signature: Hex; address: string };
export const POST = async (request: Request) => {
  const secret = new TextEncoder().encode(process.env.JWT_SECRET!);
  key ??= crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const { message, signature, address } = (await request.json()) as Body;
  await getKv().take(\`floor:nonce:\${Math.random()}\`, 'floor:live');
  const rows = (await (await getDb()).execute(
    sql\`select id, wallet_address, role from users where wallet_address = \${address}\`,
  )) as unknown as { id: string; role: 'CLIENT' | 'AGENT' }[];
  const signer = await recoverSigner(hashMessage(message), signature);
  const iat = Math.floor(Date.now() / 1000);
  const role = rows[0]?.role;
  const token = await new SignJWT({ addr: address, role, sub: rows[0]?.id, iss: 'taskmarket', aud: 'taskmarket-api',
    iat, exp: iat + 3600, jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(await key);
  const cookie = sealIronSession({ token }, process.env.SESSION_SECRET!, 3600);
  const headers = { 'Cache-Control': 'no-store', 'Set-Cookie': \`floor=\${cookie}; Path=/; HttpOnly\` };
  return Response.json({ token, user: rows[0] ?? null, signer }, { headers });
};`,
  // a signed-in list (mine=client): the caller's I/O of bench-floor/me (revocation read and user
  // row, together), then the page's one database read of ~14 KB. What it reaches against
  // bench-floor/db-page bounds what any authenticated list can.
  'bench-floor/mine': `${DB}\n${KV}
export const GET = async (request: Request) => {
  const id = (request.headers.get('authorization') ?? '').slice('Bearer '.length);
  const db = await getDb();
  await Promise.all([
    getKv().get(\`floor:revoked:\${id}\`),
    db.execute(sql\`select id, wallet_address, role, display_name from users where id = \${id}\`),
  ]);
  const rows = (await db.execute(sql\`select repeat('x', 14000) as page\`)) as unknown as { page: string }[];
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  return new Response(JSON.stringify(rows[0]!.page), { headers });
};`,
  // mission list: one database read of ~14 KB (a page of 20 missions), answered.
  // A remote MCP tool call over the list: a page read of the same size, but a POSTed JSON-RPC
  // message read first and the page — missions' JSON, quotes and all — answered as the text of a
  // JSON-RPC result (escaped once more). What any MCP call wrapping the list must do, whatever
  // serves the protocol (bench: MCP against the GET).
  'bench-floor/mcp-page': `${DB}
export const POST = async (request: Request) => {
  const message = (await request.json()) as { id: number };
  const rows = (await (await getDb()).execute(sql\`${JSON_PAGE}\`)) as unknown as { page: string }[];
  const result = { content: [{ type: 'text', text: rows[0]!.page }] };
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  return new Response(JSON.stringify({ result, jsonrpc: '2.0', id: message.id }), { headers });
};`,
  // The same, served by the MCP SDK (its Server and Streamable HTTP transport, stateless, one per
  // request as the SDK's stateless example builds them), the tool doing only the page read: what
  // /api/mcp's plain tools/call path saves by not building them (lib/mcp/plain-tool-call.ts).
  'bench-floor/mcp-sdk-page': `${DB}
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as webStandard from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
const jsonSchemaValidator = new AjvJsonSchemaValidator();
export const POST = async (request: Request) => {
  const server = new Server({ name: 'floor', version: '1' }, { capabilities: { tools: {} }, jsonSchemaValidator });
  server.setRequestHandler(CallToolRequestSchema, async () => {
    const rows = (await (await getDb()).execute(sql\`${JSON_PAGE}\`)) as unknown as { page: string }[];
    return { content: [{ type: 'text' as const, text: rows[0]!.page }] };
  });
  const transport = new webStandard.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: await request.json() });
};`,
  // The board's page as it is stored: the 21 OPEN missions' JSON read in the board's order with the
  // sort key and id the cursor needs, 20 joined into the page. What it reaches against
  // bench-floor/db-page (one row of the same size) bounds what any board page can.
  'bench-floor/list-rows': `${DB}
type Row = { view: string; key: string; id: string };
export const GET = async () => {
  const rows = (await (await getDb()).execute(sql\`select listing as view,
    to_char(listed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key, id
    from missions where status = 'OPEN' order by listed_at desc, id desc limit 21\`)) as unknown as Row[];
  const last = rows.length > 20 ? rows[19]! : undefined;
  const cursor = last ? Buffer.from(\`\${last.key},\${last.id}\`).toString('base64url') : null;
  const items = rows.slice(0, 20).map((row) => row.view).join(',');
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  return new Response(\`{"items":[\${items}],"nextCursor":\${JSON.stringify(cursor)}}\`, { headers });
};`,
  // The same page with its clients' client.stats written in (docs/api.md#client-record): the stored rows,
  // then the one statement of the page's clients' figures. Against list-rows it is what client.stats costs
  // the board; GET /api/missions against it, what is left that is the board's own.
  'bench-floor/list-rows-stats': `${DB}
import { withClientStats } from '@/lib/clients/board-stats';
type Row = { view: string; key: string; id: string };
export const GET = async () => {
  const db = await getDb();
  const rows = (await db.execute(sql\`select listing as view,
    to_char(listed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key, id
    from missions where status = 'OPEN' order by listed_at desc, id desc limit 21\`)) as unknown as Row[];
  const last = rows.length > 20 ? rows[19]! : undefined;
  const cursor = last ? Buffer.from(\`\${last.key},\${last.id}\`).toString('base64url') : null;
  const items = (await withClientStats(db, rows.slice(0, 20).map((row) => row.view))).join(',');
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  return new Response(\`{"items":[\${items}],"nextCursor":\${JSON.stringify(cursor)}}\`, { headers });
};`,
  'bench-floor/db-page': `${DB}
export const GET = async () => {
  const db = await getDb();
  const rows = (await db.execute(sql\`select repeat('x', 14000) as page\`)) as unknown as { page: string }[];
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  return new Response(JSON.stringify(rows[0]!.page), { headers });
};`,
};

/**
 * What the benchmark switches inside an instance: tracing, on (exporting to the OTLP endpoint
 * posted) or off, so the tracing table compares one process with itself — two instances, both
 * untraced, measured 0.81–0.89× apart in verify's CPU per request (BENCH_TRACING=aa).
 */
const CONTROLS: Record<string, string> = {
  'bench-control/tracing': `import { startTracing, type Tracing } from '@/lib/observability/start-tracing';
const store = globalThis as unknown as { __benchTracing?: { endpoint: string; tracing: Tracing } };
export const POST = async (request: Request) => {
  const { endpoint } = (await request.json()) as { endpoint?: string };
  // Asked for what it already is (two measurements on one side in a row), it stays as it is.
  if (store.__benchTracing?.endpoint !== endpoint) {
    await store.__benchTracing?.tracing.stop();
    const tracing = endpoint ? startTracing({ endpoint, headers: {}, serviceName: 'taskmarket-bench' }) : undefined;
    store.__benchTracing = endpoint && tracing ? { endpoint, tracing } : undefined;
  }
  return Response.json({ tracing: store.__benchTracing !== undefined });
};`,
};

/**
 * The peer: nonce, verify and me as the libraries' documentation shows them — siwe's
 * generateNonce and SiweMessage.verify, the nonce in Redis with a TTL (ioredis), a Drizzle upsert
 * of the user, and an iron-session cookie read back by `me` with the user's row.
 */
const PEER: Record<string, string> = {
  'bench-peer/peer.ts': `import { Redis } from 'ioredis';
import type { SessionOptions } from 'iron-session';
const store = globalThis as unknown as { __peerRedis?: Redis };
export const redis = () => (store.__peerRedis ??= new Redis(process.env.REDIS_URL!));
export const noncePrefix = \`\${process.env.KV_PREFIX ?? ''}peer:nonce:\`;
export interface PeerSession { userId?: string; address?: string }
export const sessionOptions: SessionOptions = {
  password: process.env.SESSION_SECRET!,
  cookieName: 'peer_session',
  ttl: 3600,
};`,
  'bench-peer/nonce': `import { generateNonce } from 'siwe';
import { noncePrefix, redis } from '../peer';
export async function POST(request: Request) {
  await request.json();
  const nonce = generateNonce();
  await redis().set(noncePrefix + nonce, '1', 'EX', 300);
  return Response.json({ nonce });
}`,
  'bench-peer/verify': `import { cookies } from 'next/headers';
import { getIronSession } from 'iron-session';
import { SiweMessage } from 'siwe';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { type PeerSession, noncePrefix, redis, sessionOptions } from '../peer';
export async function POST(request: Request) {
  const { message, signature } = (await request.json()) as { message: string; signature: string };
  try {
    const siwe = new SiweMessage(message);
    if (!(await redis().getdel(noncePrefix + siwe.nonce))) {
      return Response.json({ error: 'Invalid nonce' }, { status: 401 });
    }
    const { data } = await siwe.verify({ signature, domain: process.env.SIWE_DOMAIN, nonce: siwe.nonce });
    const db = await getDb();
    const [user] = await db
      .insert(users)
      .values({ walletAddress: data.address.toLowerCase() })
      .onConflictDoUpdate({ target: users.walletAddress, set: { updatedAt: new Date() } })
      .returning({ id: users.id, walletAddress: users.walletAddress, role: users.role });
    const session = await getIronSession<PeerSession>(await cookies(), sessionOptions);
    session.userId = user!.id;
    session.address = user!.walletAddress;
    await session.save();
    return Response.json({ user });
  } catch {
    return Response.json({ error: 'Invalid sign-in' }, { status: 401 });
  }
}`,
  'bench-peer/me': `import { eq } from 'drizzle-orm';
import { cookies } from 'next/headers';
import { getIronSession } from 'iron-session';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { type PeerSession, sessionOptions } from '../peer';
export async function GET() {
  const session = await getIronSession<PeerSession>(await cookies(), sessionOptions);
  if (!session.userId) return Response.json({ error: 'Unauthorized' }, { status: 401 });
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, walletAddress: users.walletAddress, role: users.role })
    .from(users)
    .where(eq(users.id, session.userId));
  if (!user) return Response.json({ error: 'Unauthorized' }, { status: 401 });
  return Response.json({ user });
}`,
};

/**
 * The benchmark build: the app with every floor and the peer; its distDir. With BENCH_PROFILE the
 * server code is left unminified (a build of its own), so the profile names our functions.
 */
export function buildBenchRoutes(): string {
  const routes = { ...GENERIC_FLOORS, ...ENDPOINT_FLOORS, ...CONTROLS, ...PEER };
  if (!process.env.BENCH_PROFILE) return buildBenchApp({ name: 'bench', routes });
  return buildBenchApp({ name: 'bench-profile', routes, rewrites: { 'next.config.ts': unminifiedConfig } });
}
