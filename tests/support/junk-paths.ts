// Requests to paths no one routes on purpose, as they reach their handlers (docs/api.md#observability): the
// rewritten discovery documents keep their own URL, anything under /api reaches the catch-all.
import { randomUUID } from 'node:crypto';
import { GET as catchAll } from '@/app/api/[...path]/route';
import { GET as authorizationServer } from '@/app/api/oauth/metadata/authorization-server/route';
import { GET as protectedResource } from '@/app/api/oauth/metadata/protected-resource/route';
import { call } from './http';

/** The templates the junk requests are labelled by. */
export const JUNK_ROUTES = [
  '/.well-known/oauth-authorization-server/[...path]',
  '/.well-known/oauth-protected-resource/[...path]',
  '/api/[...path]',
];

/** The i-th junk request: each path new, the three kinds in turn (the documents 200, the catch-all 404). */
export function junkRequest(i: number) {
  const tail = `${randomUUID()}/${i}`;
  if (i % 3 === 0) return call(authorizationServer, { path: `/.well-known/oauth-authorization-server/${tail}` });
  if (i % 3 === 1) return call(protectedResource, { path: `/.well-known/oauth-protected-resource/${tail}` });
  return call(catchAll, { path: `/api/${tail}`, params: { path: tail.split('/') } as never });
}
