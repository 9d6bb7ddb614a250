// Multipart forms carry every field as text (docs/api.md#missions): tags (and a bounty's split, docs/api.md#bounties)
// come comma-separated, criteria, self-checks and unmet lists (docs/api.md#criteria) as JSON text, and an empty input
// is a field left out. This turns a form into the shape the JSON schemas validate.

const LISTS = new Set(['tags', 'split']);
const JSON_FIELDS = new Set(['criteria', 'selfCheck', 'unmet', 'milestones']);

/** JSON text as its value; text that is not JSON stays text, for the schema to refuse. */
function parsed(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export function fromForm(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value.trim() === '') continue;
    out[name] = LISTS.has(name)
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : JSON_FIELDS.has(name)
        ? parsed(value)
        : value;
  }
  return out;
}
