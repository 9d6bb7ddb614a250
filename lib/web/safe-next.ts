// Where the dashboard goes after sign-in (docs/api.md#origins): only a path of its own origin, resolved
// the way the browser will resolve it, so tabs, backslashes and `//host` cannot lead elsewhere.

const HOME = '/missions';
// A stand-in origin: a `next` that resolves anywhere but here names another site.
const SELF = 'https://self.invalid';

export function safeNext(value: string | string[] | undefined): string {
  const next = Array.isArray(value) ? value[0] : value;
  if (!next?.startsWith('/')) return HOME;
  let url: URL;
  try {
    url = new URL(next, SELF);
  } catch {
    return HOME;
  }
  if (url.origin !== SELF || url.pathname.startsWith('/sign-in')) return HOME;
  // The normalised form: what was followed is exactly what was checked.
  return `${url.pathname}${url.search}${url.hash}`;
}
