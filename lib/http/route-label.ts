// The route a request is counted and traced under (docs/api.md#observability): the template of the route
// that matches its path, as the App Router ranks them (a fixed segment before `[name]`, `[name]`
// before `[...name]`), or `other`. Only the known templates can come out, whatever the path —
// the label set, and so /api/metrics' series and the span names, stay bounded.
import { ROUTE_TEMPLATES } from './route-templates';

/** What a label is when no template matches the path. */
export const OTHER_ROUTE = 'other';

const FIXED = 0;
const PARAM = 1;
const CATCH_ALL = 2;

interface Template {
  label: string;
  segments: { kind: typeof FIXED | typeof PARAM | typeof CATCH_ALL; text: string }[];
}

function compile(label: string): Template {
  const segments = label
    .split('/')
    .slice(1)
    .map(
      (text) =>
        ({
          kind: text.startsWith('[...') ? CATCH_ALL : text.startsWith('[') ? PARAM : FIXED,
          text,
        }) as Template['segments'][number],
    );
  return { label, segments };
}

// The App Router's precedence: at the first segment whose kind differs, the more fixed one wins.
function byPrecedence(a: Template, b: Template): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i += 1) {
    const difference = a.segments[i]!.kind - b.segments[i]!.kind;
    if (difference !== 0) return difference;
  }
  return a.segments.length - b.segments.length;
}

const TEMPLATES = ROUTE_TEMPLATES.map(compile).sort(byPrecedence);

function matches(template: Template, path: readonly string[]): boolean {
  for (const [i, { kind, text }] of template.segments.entries()) {
    if (kind === CATCH_ALL) return path.length > i;
    const segment = path[i];
    if (segment === undefined || (kind === FIXED ? segment !== text : segment === '')) return false;
  }
  return path.length === template.segments.length;
}

/** `/api/missions/3f1c…/accept` → `/api/missions/[id]/accept`; a path no route has → `other`. */
export function routeLabel(pathname: string): string {
  const path = pathname.split('/').slice(1).map(safeDecode);
  return TEMPLATES.find((template) => matches(template, path))?.label ?? OTHER_ROUTE;
}

// Next.js routes by the decoded path: `/api/he%61lth` is the health route.
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
