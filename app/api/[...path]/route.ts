// Unknown paths under /api answer in the API's error shape, not with an HTML page.
import { observed } from '@/lib/http/observed';
import { json } from '@/lib/http/route';

const notFound = observed(async () => json({ error: 'Not found' }, { status: 404 }));

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
