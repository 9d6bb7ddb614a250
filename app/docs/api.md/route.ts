// GET /docs/api.md (docs/api.md#discovery): the API guide as written, beside the generated reference at /docs.
import { apiGuide } from '@/lib/discovery/api-guide';
import { textDocument } from '@/lib/discovery/text-document';
import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';

export const GET = route({}, async () => textDocument(await apiGuide(), 'text/markdown'));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
