// Which client_ids name a Client ID Metadata Document (docs/api.md#client-id-metadata-documents;
// draft-ietf-oauth-client-id-metadata-document §3): an https URL with a path, no fragment, no
// credentials and no dot segments. Registered clients' ids (tmc_…) are never URLs, so the two
// kinds cannot collide.

export const MAX_CLIENT_ID_URL_LENGTH = 2000;

/** The URL a metadata-document client_id names, or undefined when `clientId` is no such URL. */
export function clientIdUrl(clientId: string): URL | undefined {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH || !clientId.startsWith('https://')) return undefined;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return undefined;
  }
  // The document's own client_id must equal the string as given, so it must also be its URL as written.
  if (url.href !== clientId) return undefined;
  if (url.hash || clientId.includes('#') || url.username || url.password) return undefined;
  if (url.pathname === '/' || url.pathname.split('/').some((segment) => segment === '.' || segment === '..'))
    return undefined;
  return url;
}
