// Which pages may make a browser act with our session (docs/api.md#origins): a request's Origin must be the
// request's own origin or exactly one of APP_ORIGINS. A cookie rides along on cross-site requests
// and a browser always sends Origin on them, so a foreign or opaque ("null") Origin is refused.
import type { Config } from '../config';
import { ApiError } from '../errors';

export type MissingOrigin = 'allow' | 'refuse';

/**
 * `missing`: `allow` where a non-browser client may call without an Origin (bearer requests,
 * verify from an SDK), `refuse` for cookie-authenticated writes.
 */
export function assertAllowedOrigin(request: Request, cfg: Config, missing: MissingOrigin): void {
  const origin = request.headers.get('origin');
  if (origin === null ? missing === 'allow' : isAllowedOrigin(origin, request, cfg)) return;
  throw new ApiError(403, 'Cross-site request refused');
}

function isAllowedOrigin(origin: string, request: Request, cfg: Config): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === 'null') return false;
  return url.origin === ownOrigin(request) || cfg.appOrigins.includes(url.origin);
}

/**
 * The request's own origin, scheme and host: `http://host` is another origin than `https://host`
 * (a page on the plain-HTTP site may be anyone's on the network). The browser sets Host to the
 * server it talks to, and a page cannot change it; the scheme is the request URL's, which Next.js
 * takes from `X-Forwarded-Proto` behind a proxy.
 */
function ownOrigin(request: Request): string | undefined {
  const url = new URL(request.url);
  try {
    return new URL(`${url.protocol}//${request.headers.get('host') ?? url.host}`).origin;
  } catch {
    return undefined;
  }
}
