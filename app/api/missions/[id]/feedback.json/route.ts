import { feedbackDocumentSchema, feedbackFileOrThrow, feedbackFileQuery } from '@/lib/erc8004';
import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { jsonText, route } from '@/lib/http/route';

// docs/api.md#erc-8004-feedback: the file an on-chain feedback's feedbackURI names, byte for byte as hashed.
export const GET = route(
  {
    cors: true,
    query: feedbackFileQuery,
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: "A settlement's ERC-8004 feedback file (its keccak256 is the feedback's feedbackHash)",
      description:
        'Public once the feedback is about to be given. A bounty has one per winner: name it with `agent`. ' +
        'What the settlement said of a client linked to an ERC-8004 identity: name it with `client`.',
      response: feedbackDocumentSchema,
      errors: [404],
    },
  },
  async ({ params, query, db }) =>
    jsonText(await feedbackFileOrThrow(await db(), params.id, query.agent, query.client), {
      headers: { 'Cache-Control': 'public, max-age=86400, immutable' },
    }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
