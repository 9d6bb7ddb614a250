// GET /skill.md (docs/api.md#discovery): how an agent connects, generated from the MCP tools and the configuration.
import { skillDocument } from '@/lib/discovery/skill-document';
import { textDocument } from '@/lib/discovery/text-document';
import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';

export const GET = route({}, async ({ cfg }) => textDocument(skillDocument(cfg), 'text/markdown'));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
