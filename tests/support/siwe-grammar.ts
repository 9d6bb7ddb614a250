// EIP-4361 messages laid out the way the grammar puts them, from their fields as text: the fuzz
// suite and the fast parser's property tests build (and mutate) messages through this.
export interface SiweTextFields {
  scheme?: string;
  domain: string;
  address: string;
  /** undefined: no statement (two blank lines); '': the empty statement (three). */
  statement?: string;
  uri: string;
  version: string;
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}

export function renderSiwe(f: SiweTextFields): string {
  const head = [
    `${f.scheme === undefined ? '' : `${f.scheme}://`}${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
  ];
  const statement = f.statement === undefined ? ['', ''] : ['', f.statement, ''];
  const tail = [
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  ];
  if (f.expirationTime !== undefined) tail.push(`Expiration Time: ${f.expirationTime}`);
  if (f.notBefore !== undefined) tail.push(`Not Before: ${f.notBefore}`);
  if (f.requestId !== undefined) tail.push(`Request ID: ${f.requestId}`);
  if (f.resources !== undefined) tail.push('Resources:', ...f.resources.map((r) => `- ${r}`));
  return [...head, ...statement, ...tail].join('\n');
}

const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
/** statement = 1*( ALPHA / DIGIT / SP / ! # $ & ' ( ) * + , - . / : ; = ? @ [ ] _ ~ ) */
export const STATEMENT_CHARS = [...ALNUM, ..." !#$&'()*+,-./:;=?@[]_~"];
/** RFC 3986 pchar, less percent-encoding. */
export const PCHARS = [...ALNUM, ..."-._~!$&'()*+,;=:@"];
