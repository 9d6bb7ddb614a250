// A fast matcher for the canonical form of EIP-4361 messages (what viem's createSiweMessage and
// wallets write). It is not a parser of its own: its language is a strict subset of what the
// reference parser (@spruceid/siwe-parser) accepts, with the same fields, and anything outside it
// is declined (undefined) so the reference decides, with its own errors. The reference interprets
// an ABNF grammar and costs ~0.65 ms a message; this costs a few µs.
import { isEIP55Address, type ParsedMessage } from '@spruceid/siwe-parser';

/** The reference's fields, less `uriElements` (the URI's decomposition, which nothing here reads). */
export type SiweParts = Omit<ParsedMessage, 'uriElements'>;

// RFC 3986 pchar without the percent sign's alternatives spelled out: unreserved, sub-delims, ":" and
// "@", or a well-formed pct-encoded triple (the grammar's `pchar`).
const PCHAR = "(?:[A-Za-z0-9!$&'()*+,\\-.:;=@_~]|%[0-9A-Fa-f]{2})";
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*';
// Only a plain reg-name (letters, digits, dots, hyphens) and a numeric port: the grammar's
// userinfo, IP literals and percent-encoded hosts go to the reference. A port of at most five
// digits, since the reference turns it into a number and throws on an infinite one.
const HOST_PORT = '[A-Za-z0-9.-]+(?::[0-9]{1,5})?';
// scheme "://" authority path-abempty [ "?" query ] [ "#" fragment ]: the hierarchical URIs of
// the web; `urn:`, `did:`, `mailto:` (path-rootless) go to the reference.
const URI = `${SCHEME}://${HOST_PORT}(?:/${PCHAR}*)*(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;

const PREAMBLE = new RegExp(`^(?:(${SCHEME})://)?(${HOST_PORT}) wants you to sign in with your Ethereum account:$`);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
// EIP-4361 statement: printable ASCII except " % < > \ ^ ` { | } (and no line break).
const STATEMENT = /^[A-Za-z0-9 !#$&'()*+,\-./:;=?@[\]_~]+$/;
const URI_LINE = new RegExp(`^URI: (${URI})$`);
const CHAIN_ID = /^Chain ID: ([0-9]+)$/;
// EIP-4361: nonce is at least 8 alphanumeric characters.
const NONCE = /^Nonce: ([A-Za-z0-9]{8,})$/;
// RFC 3339 date-time as the grammar reads it (upper-case T and Z only; the grammar also allows
// lower case), narrowed to the reference's own ISO-8601 check: months 01-12, days 01-31,
// hours 00-23, minutes 00-59, seconds 00-60, offsets up to ±23:59.
const DATE_TIME = new RegExp(
  /^([0-9]{4}-(?:0[1-9]|1[012])-(?:0[1-9]|[12][0-9]|3[01]))/.source +
    /T(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?/.source +
    /(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$/.source,
);
const ISSUED_AT = 'Issued At: ';
const REQUEST_ID = new RegExp(`^${PCHAR}*$`);
const RESOURCE = new RegExp(`^- (${URI})$`);

/** The date-time, if it is one the reference accepts: it also refuses days the month lacks (Feb 30). */
function dateTime(text: string): string | undefined {
  const date = DATE_TIME.exec(text)?.[1];
  if (date === undefined) return undefined;
  // The reference's check: the calendar date must survive a round trip through Date (which rolls
  // 2026-02-30 over to 2026-03-02).
  const day = new Date(date);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === date ? text : undefined;
}

const requestIdValue = (text: string): string | undefined => (REQUEST_ID.test(text) ? text : undefined);

// The optional lines, each at most once and in the grammar's order (resources, last, apart).
const OPTIONAL_LINES = [
  ['expirationTime', 'Expiration Time: ', dateTime],
  ['notBefore', 'Not Before: ', dateTime],
  ['requestId', 'Request ID: ', requestIdValue],
] as const;

/** The message's fields when it is in canonical form, else undefined (the reference must decide). */
export function matchCanonicalSiwe(message: string): SiweParts | undefined {
  const lines = message.split('\n');
  const head = PREAMBLE.exec(lines[0]!);
  const address = lines[1];
  if (!head || address === undefined || !ADDRESS.test(address) || !isEIP55Address(address)) return undefined;

  // The grammar's three statement forms, tried in its order: a statement between blank lines, the
  // empty statement (three blank lines) and none (two).
  if (lines[2] !== '') return undefined;
  let statement: string | undefined;
  let at: number;
  if (lines[3] !== undefined && lines[4] === '' && STATEMENT.test(lines[3])) [statement, at] = [lines[3], 5];
  else if (lines[3] === '' && lines[4] === '') [statement, at] = ['', 5];
  else if (lines[3] === '') [statement, at] = [undefined, 4];
  else return undefined;

  const uri = URI_LINE.exec(lines[at] ?? '')?.[1];
  const version = lines[at + 1] === 'Version: 1' ? '1' : undefined;
  const chainIdText = CHAIN_ID.exec(lines[at + 2] ?? '')?.[1];
  const nonce = NONCE.exec(lines[at + 3] ?? '')?.[1];
  const issuedAtLine = lines[at + 4];
  const issuedAt = issuedAtLine?.startsWith(ISSUED_AT) ? dateTime(issuedAtLine.slice(ISSUED_AT.length)) : undefined;
  if (
    uri === undefined ||
    version === undefined ||
    chainIdText === undefined ||
    nonce === undefined ||
    issuedAt === undefined
  )
    return undefined;
  // The reference reads the chain id with parseInt and throws when it is infinite (hundreds of digits).
  const chainId = parseInt(chainIdText, 10);
  if (!Number.isFinite(chainId)) return undefined;
  at += 5;

  const optionals: { [K in (typeof OPTIONAL_LINES)[number][0]]?: string } = {};
  for (const [field, title, read] of OPTIONAL_LINES) {
    const line = lines[at];
    if (line === undefined || !line.startsWith(title)) continue;
    const value = read(line.slice(title.length));
    if (value === undefined) return undefined;
    optionals[field] = value;
    at += 1;
  }
  let resources: string[] | undefined;
  if (lines[at] === 'Resources:') {
    resources = [];
    for (at += 1; at < lines.length; at += 1) {
      const resource = RESOURCE.exec(lines[at]!)?.[1];
      if (resource === undefined) return undefined;
      resources.push(resource);
    }
  }
  // Nothing may follow, not even a final line break.
  if (at !== lines.length) return undefined;

  return {
    scheme: head[1],
    domain: head[2]!,
    address,
    statement,
    uri,
    version,
    chainId,
    nonce,
    issuedAt,
    expirationTime: optionals.expirationTime,
    notBefore: optionals.notBefore,
    requestId: optionals.requestId,
    resources,
  };
}
