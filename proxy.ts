// x-request-id on every answer (docs/api.md#observability), the dashboard's pages included: API
// routes set it in their own wrapper (lib/http/observed.ts), so the matcher leaves /api out and
// Next.js does not run this for them at all. The id goes on the request too, so a path rewritten to
// an API route (/.well-known/…) keeps the one chosen here.
import { type NextRequest, NextResponse } from 'next/server';
import { requestIdFrom } from '@/lib/observability/request-context';

export function proxy(request: NextRequest): NextResponse {
  const id = requestIdFrom(request.headers);
  const headers = new Headers(request.headers);
  headers.set('x-request-id', id);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('x-request-id', id);
  return response;
}

export const config = {
  matcher: ['/((?!api/|_next/static/|_next/image|favicon.ico).*)'],
};
