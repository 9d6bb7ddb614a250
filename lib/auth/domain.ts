// The SIWE domain rule (docs/api.md#sign-in): a domain is allowed when it equals an entry of SIWE_DOMAIN or
// is a subdomain of one; when the entry names a port, the port must match too.

interface Authority {
  host: string;
  port: string | undefined;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** Splits `host[:port]` (RFC 3986 authority without userinfo); undefined when it is not one. */
export function parseAuthority(authority: string): Authority | undefined {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(authority.toLowerCase());
  if (!match) return undefined;
  const host = match[1]!;
  if (!HOSTNAME.test(host) && !IPV6.test(host)) return undefined;
  return { host, port: match[2] };
}

const isIp = (host: string) => host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host);

/**
 * Whether `authority` is allowed by the entries. `defaultPort` stands in for a missing port
 * (an Origin of https://x.com means port 443).
 */
export function isAllowedDomain(authority: string, entries: readonly string[], defaultPort?: string): boolean {
  const candidate = parseAuthority(authority);
  if (!candidate) return false;
  const port = candidate.port ?? defaultPort;
  return entries.some((entry) => {
    const allowed = parseAuthority(entry);
    if (!allowed) return false;
    if (allowed.port !== undefined && allowed.port !== port) return false;
    if (candidate.host === allowed.host) return true;
    // A label boundary, so evilapp.example.com does not pass for app.example.com.
    return !isIp(allowed.host) && candidate.host.endsWith(`.${allowed.host}`);
  });
}
