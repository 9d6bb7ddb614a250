// Multipart forms carry every field as text (docs/api.md#missions): tags come comma-separated, and an empty
// input is a field left out. This turns a form into the shape the JSON schemas validate.

export function fromForm(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value.trim() === '') continue;
    out[name] = name === 'tags' ? value.split(',').map((tag) => tag.trim()).filter(Boolean) : value;
  }
  return out;
}
