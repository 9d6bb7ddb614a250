// Multipart forms carry every field as text (docs/api.md#missions): tags (and a bounty's split, docs/api.md#bounties) come
// comma-separated, and an empty input is a field left out. This turns a form into the shape the JSON schemas validate.

const LISTS = new Set(['tags', 'split']);

export function fromForm(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value.trim() === '') continue;
    out[name] = LISTS.has(name) ? value.split(',').map((item) => item.trim()).filter(Boolean) : value;
  }
  return out;
}
