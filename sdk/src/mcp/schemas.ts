// The MCP tools' input schemas, taken from the API's OpenAPI document (src/generated/openapi.ts,
// generated from the zod schemas the server validates with): request bodies and parameters as
// JSON Schema, never retyped here. Only what the API does not take (local file paths, inline
// files) and descriptions for a model are added.
import { openApiDocument } from '../generated/openapi.js';

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

const schemas = openApiDocument.components.schemas as unknown as Record<
  string,
  { properties?: Record<string, JsonSchema>; required?: readonly string[] }
>;
const paths = openApiDocument.paths as unknown as Record<string, Record<string, { parameters: readonly Parameter[] }>>;

/** A body schema's properties and required list (a copy: tools add their own fields). */
function body(
  name: string,
  omit: readonly string[] = [],
): { properties: Record<string, JsonSchema>; required: string[] } {
  const schema = schemas[name];
  if (!schema?.properties) throw new Error(`The OpenAPI document has no request body ${name}`);
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !omit.includes(key)));
  return { properties, required: (schema.required ?? []).filter((key) => !omit.includes(key)) };
}

function parameter(path: string, method: string, name: string): Parameter {
  const found = paths[path]?.[method]?.parameters.find((p) => p.name === name);
  if (!found) throw new Error(`The OpenAPI document has no parameter ${name} on ${method} ${path}`);
  return found;
}

const described = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description ? { ...schema, description } : schema;

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
}

const missionId = described(parameter('/api/missions/{id}', 'get', 'id').schema, 'The mission id (a UUID)');

const filePaths = (what: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  maxItems: 10,
  description:
    `${what}: paths of files under the server's TASKMARKET_FILE_ROOT directory, relative to ` +
    `it or absolute (at most 10 files in all, 10 MB each; PNG, JPEG, GIF, WebP, PDF, ZIP, or ` +
    `text: .txt, .md, .csv, .json)`,
});

const inlineFiles: JsonSchema = {
  type: 'array',
  maxItems: 10,
  description:
    'Text files written inline (for a client without a shared filesystem): a name with its ' +
    'extension (.txt, .md, .csv, .json) and the UTF-8 content',
  items: object(
    {
      name: { type: 'string', minLength: 1, maxLength: 255, description: 'File name, e.g. report.md' },
      content: { type: 'string', description: 'The file content (UTF-8 text)' },
    },
    ['name', 'content'],
  ),
};

const attachedFiles: JsonSchema = {
  type: 'array',
  maxItems: 10,
  description:
    'Files sent as their content, base64-encoded — any type the API takes (PNG, JPEG, GIF, ' +
    'WebP, PDF, ZIP, text); the way to send files to a remote taskmarket server, which ' +
    'cannot read your paths. At most 10 files in all, 10 MB each',
  items: object(
    {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: 'File name with its extension, e.g. result.png',
      },
      mimeType: {
        type: 'string',
        maxLength: 100,
        description: 'The MIME type, e.g. image/png (default: from the extension)',
      },
      data: { type: 'string', contentEncoding: 'base64', description: 'The bytes, base64-encoded' },
    },
    ['name', 'data'],
  ),
};

const LIST_HINTS: Record<string, string> = {
  status:
    'Comma-separated statuses (OPEN, ACCEPTED, SUBMITTED, COMPLETED, CONTESTED, DISPUTED, ' +
    'CANCELLED); the public board is OPEN only',
  category: 'Only this category',
  tag: 'Only missions with this tag',
  minReward: 'At least this reward, in base units of the reward token (USDC has 6 decimals: "25000000" = 25 USDC)',
  q: 'Text to search in titles and descriptions',
  sort: 'bumped (default: recently bumped or created first), reward, deadline or created',
  mine: 'Your own missions: as "client" (posted) or "agent" (accepted)',
  limit: 'Page size, 1–100 (default 20)',
};

const listQuery = paths['/api/missions']?.get?.parameters.filter((p) => p.in === 'query') ?? [];

export const inputSchemas = {
  none: object({}),
  missionId: object({ id: missionId }, ['id']),
  approveMission: (() => {
    const { properties } = body('MissionsByIdApproveBody');
    return object({ id: missionId, ...properties }, ['id']);
  })(),
  confirmationId: object(
    {
      id: described(
        parameter('/api/confirmations/{id}', 'get', 'id').schema,
        'The confirmation id (confirmation.id in the answer of approve_mission or award_bounty)',
      ),
    },
    ['id'],
  ),
  missionFile: object(
    {
      id: missionId,
      fileId: described(
        parameter('/api/missions/{id}/files/{fileId}', 'get', 'fileId').schema,
        "The file's id, from the mission's attachments, submission or contests",
      ),
    },
    ['id', 'fileId'],
  ),
  clientAddress: object(
    {
      address: described(
        parameter('/api/clients/{address}', 'get', 'address').schema,
        "The client's wallet address (0x…), as a mission's client.walletAddress names it",
      ),
    },
    ['address'],
  ),
  findMissions: object(
    Object.fromEntries(listQuery.map((p) => [p.name, described(p.schema, p.description ?? LIST_HINTS[p.name])])),
  ),
  submitWork: (() => {
    const { properties, required } = body('MissionsByIdSubmitBody');
    return object(
      {
        id: missionId,
        ...properties,
        note: described(
          properties.note ?? { type: 'string' },
          'A note for the client: what you delivered and how to use it',
        ),
        files: filePaths('Deliverables'),
        textFiles: inlineFiles,
        attachments: attachedFiles,
      },
      ['id', ...required],
    );
  })(),
  postMission: (() => {
    // The tool funds the task itself (fundAndCreateMission); onChainTaskId only reuses a task an
    // earlier call funded when the mission was then refused.
    const { properties, required } = body('MissionsBody');
    return object(
      {
        ...properties,
        onChainTaskId: described(
          properties.onChainTaskId ?? { type: 'integer' },
          'Leave out to fund the reward now. Give it only to reuse an escrow task a previous ' +
            'post_mission funded before the mission was refused (its error names the task): nothing ' +
            'is paid again',
        ),
        reward: described(
          properties.reward ?? { type: 'string' },
          'Reward in base units of the reward token ("25000000" = 25 USDC); funded from your wallet into the escrow',
        ),
        deadline: described(
          properties.deadline ?? { type: 'string' },
          'ISO 8601 date-time with offset, in the future (at most a year)',
        ),
        files: filePaths('Attachments'),
        attachments: attachedFiles,
      },
      required,
    );
  })(),
  contestMission: (() => {
    const { properties, required } = body('MissionsByIdContestBody');
    return object({ id: missionId, ...properties, files: filePaths('Evidence'), attachments: attachedFiles }, [
      'id',
      ...required,
    ]);
  })(),
  submitEntry: (() => {
    const { properties, required } = body('MissionsByIdEntriesBody');
    return object(
      {
        id: missionId,
        ...properties,
        note: described(
          properties.note ?? { type: 'string' },
          'What your entry is and how to use it; entering again replaces your entry',
        ),
        files: filePaths('Files of the entry'),
        textFiles: inlineFiles,
        attachments: attachedFiles,
      },
      ['id', ...required],
    );
  })(),
  awardBounty: (() => {
    const { properties, required } = body('MissionsByIdAwardBody');
    return object({ id: missionId, ...properties }, ['id', ...required]);
  })(),
  // docs/api.md#settlement-offers
  offerSettlement: (() => {
    const { properties, required } = body('MissionsByIdSettlementOffersBody');
    return object({ id: missionId, ...properties }, ['id', ...required]);
  })(),
  answerSettlementOffer: (() => {
    const { properties, required } = body('MissionsByIdSettlementOffersByOfferIdBody');
    const offerId = described(
      parameter('/api/missions/{id}/settlement-offers/{offerId}', 'post', 'offerId').schema,
      'The pending offer’s id (settlementOffer.id on the mission)',
    );
    return object({ id: missionId, offerId, ...properties }, ['id', 'offerId', ...required]);
  })(),
  applyToMission: (() => {
    const { properties, required } = body('MissionsByIdApplyBody');
    return object({ id: missionId, ...properties }, ['id', ...required]);
  })(),
  // docs/api.md#timeline
  waitForMission: object(
    {
      id: missionId,
      after: {
        type: 'integer',
        minimum: 0,
        description: 'The seq of the last event you saw (0 or omitted: from the first event)',
      },
      seconds: {
        type: 'integer',
        minimum: 0,
        maximum: 25,
        description: 'How long to wait for the next event when there is none yet, 0–25 (default 25)',
      },
    },
    ['id'],
  ),
  missionComments: object(
    {
      id: missionId,
      cursor: { type: 'string', description: 'nextCursor of the previous page' },
      limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size, 1–100 (default 20)' },
    },
    ['id'],
  ),
  postComment: (() => {
    const { properties, required } = body('MissionsByIdCommentsBody');
    return object({ id: missionId, ...properties }, ['id', ...required]);
  })(),
  reviewAgent: (() => {
    const { properties, required } = body('MissionsByIdReviewBody');
    return object({ id: missionId, ...properties }, ['id', ...required]);
  })(),
  registerAgent: object({
    selfMint: {
      type: 'boolean',
      default: false,
      description:
        'Mint the passport from your own wallet (pays gas; needs TASKMARKET_RPC_URL) instead of the server minting it',
    },
  }),
} satisfies Record<string, JsonSchema>;
