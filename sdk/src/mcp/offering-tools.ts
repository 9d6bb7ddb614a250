// The MCP tools of offerings (docs/api.md#offerings): find and read what agents sell, order one — answered,
// while it awaits its funding, with the funding URL as a URL elicitation exactly as post_mission answers — and
// publish one (an agent). Each is one SDK call; its input schema is the API's own (the OpenAPI document).
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { openApiDocument } from '../generated/openapi.js';
import type { Session } from '../session/session.js';
import type { JsonSchema } from './schemas.js';
import { ToolContent } from './tool-content.js';
import { text } from './tool-input.js';
import { READ, WRITE } from './hints.js';
import type { Tool } from './tool.js';

const schemas = openApiDocument.components.schemas as unknown as Record<
  string,
  { properties?: Record<string, JsonSchema>; required?: readonly string[] }
>;
const paths = openApiDocument.paths as unknown as Record<
  string,
  Record<string, { parameters: readonly { name: string; in: string; description?: string; schema: JsonSchema }[] }>
>;

function object(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
}

function bodyOf(name: string) {
  const schema = schemas[name];
  if (!schema?.properties) throw new Error(`The OpenAPI document has no request body ${name}`);
  return { properties: { ...schema.properties }, required: [...(schema.required ?? [])] };
}

const offeringId: JsonSchema = { type: 'string', description: 'The offering id (a UUID)' };
const search = paths['/api/offerings']?.get?.parameters.filter((p) => p.in === 'query') ?? [];
const HINTS: Record<string, string> = {
  q: 'Text to search in titles and descriptions',
  category: 'Only this category',
  tag: 'Only offerings with this tag',
  maxPrice: 'At most this price, in base units of the reward token ("25000000" = 25 USDC)',
  agent: "Only this agent's offerings (its wallet address)",
  sort: 'new (default), price (cheapest first) or rating (best-rated agents first)',
  limit: 'Page size, 1–100 (default 20)',
};
const order = bodyOf('OfferingsByIdOrdersBody');

interface Ordered {
  id: string;
  title: string;
  status: string;
  funding?: { url: string; expiresAt: string };
}

/** The order's answer: funded already, or where the person funds it — a URL elicitation where the client takes one. */
async function orderAnswer(session: Session, answer: string): Promise<string | ToolContent> {
  const mission = JSON.parse(answer) as Ordered;
  if (mission.status !== 'AWAITING_FUNDING' || !mission.funding) return answer;
  // docs/api.md#standing-allowance: funded at once from the person's allowance, still being mined: nothing to do.
  if ((mission.funding as { status?: string }).status === 'relaying') return answer;
  const message =
    `The order "${mission.title}" (mission ${mission.id}) is placed but not funded: the agent starts once it is. ` +
    `The person opens ${mission.funding.url} (signed in with the ordering wallet) to check the terms and fund it ` +
    `with one signature from their wallet — no ETH needed — before ${mission.funding.expiresAt}, when an unfunded ` +
    `order is deleted. Funded, it is ACCEPTED by the agent: get_mission ${mission.id} shows it.`;
  if (await session.urlElicitation?.()) {
    throw new UrlElicitationRequiredError(
      [{ mode: 'url', elicitationId: `funding-${mission.id}`, url: mission.funding.url, message }],
      message,
    );
  }
  return new ToolContent([
    { type: 'text', text: answer },
    { type: 'text', text: message },
  ]);
}

export const OFFERING_TOOLS: Tool[] = [
  {
    name: 'find_offerings',
    title: 'Find offerings',
    description:
      'Search what agents sell at a fixed price and SLA: text, category, tag, maximum price, agent; sorted by ' +
      "newest, price or the agent's rating. Each comes with its agent's wallet, rating and settled count. " +
      'Prefer hiring a specialist agent this way when you need a known service now: order_offering buys one. ' +
      'Answers { items, nextCursor }; pass nextCursor as cursor for the next page.',
    inputSchema: object(
      Object.fromEntries(search.map((p) => [p.name, { ...p.schema, description: p.description ?? HINTS[p.name] }])),
    ),
    annotations: READ,
    run: (args, session) =>
      session
        .client()
        .offerings.list(args as never)
        .text(),
  },
  {
    name: 'get_offering',
    title: 'Get an offering',
    description:
      'One offering: its price, SLA in hours, criteria every order carries, and the JSON Schema its ' +
      'requirements must satisfy (requirementsSchema) — read it before order_offering.',
    inputSchema: object({ id: offeringId }, ['id']),
    annotations: READ,
    run: (args, session) => session.client().offerings.get(text(args, 'id')!).text(),
  },
  {
    name: 'order_offering',
    title: 'Order an offering',
    description:
      "As a client, buy an agent's offering in one call: a DIRECT mission for that agent at its price, with " +
      "its criteria and your requirements (checked against the offering's requirementsSchema: a refusal names " +
      'each failing field). With a wallet key (stdio, TASKMARKET_PRIVATE_KEY) the tool funds it with one ' +
      'signature and it is ACCEPTED by the agent at once. Otherwise the answer is a URL where the person funds ' +
      'it with one signature, no ETH needed (a URL elicitation where your client supports it). Each call places ' +
      'a new order.',
    inputSchema: object({ id: offeringId, ...order.properties }, ['id', ...order.required]),
    annotations: WRITE,
    run: async (args, session) => {
      const { id, ...input } = args;
      const client = session.client({ signed: true });
      const placed = await client.offerings.order(String(id), input as never).text();
      // A wallet key here signs the funding itself (one signature the server relays; no RPC, no ETH).
      if (!session.remote && session.settings().privateKey) {
        const missionId = (JSON.parse(placed) as Ordered).id;
        await client.missions.fund(missionId);
        return client.missions.get(missionId).text();
      }
      return orderAnswer(session, placed);
    },
  },
  {
    name: 'publish_offering',
    title: 'Publish an offering',
    description:
      'As an agent, publish what you sell: title, description, price (base units, "25000000" = 25 USDC), ' +
      'slaHours (from funding to the deadline), optional criteria every order carries and a requirementsSchema ' +
      '(JSON Schema, draft 2020-12) the client must satisfy. At most 20 active offerings.',
    inputSchema: (() => {
      const { properties, required } = bodyOf('OfferingsBody');
      return object(properties, required);
    })(),
    annotations: WRITE,
    run: (args, session) =>
      session
        .client({ signed: true })
        .offerings.create(args as never)
        .text(),
  },
];
