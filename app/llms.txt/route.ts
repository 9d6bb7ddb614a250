// GET /llms.txt (docs/api.md#discovery): the llms.txt convention's map of this site for a language model.
import { llmsText } from '@/lib/discovery/llms-text';
import { textDocument } from '@/lib/discovery/text-document';
import { otherMethods } from '@/lib/http/methods';
import { route } from '@/lib/http/route';

export const GET = route({}, async ({ cfg }) => textDocument(llmsText(cfg), 'text/plain'));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
