// Renders a JSON Schema (as z.toJSONSchema writes it) as a readable nested list: types, required
// fields, constraints, enums, and links to named component schemas.
type Schema = Record<string, unknown>;

const CONSTRAINTS = [
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'default',
  'const',
] as const;

const code = { fontFamily: 'ui-monospace, monospace', fontSize: '0.9em' };

export function refName(ref: string): string {
  return ref.replace('#/components/schemas/', '');
}

function typeLabel(schema: Schema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') return type;
  if (schema.anyOf || schema.oneOf) return 'one of';
  return 'any';
}

function constraints(schema: Schema): string {
  const parts: string[] = [];
  for (const key of CONSTRAINTS) {
    if (schema[key] === undefined) continue;
    // Zod writes full date/time regexes next to their format: the format says it better.
    if (key === 'pattern' && schema.format) continue;
    parts.push(`${key}: ${JSON.stringify(schema[key])}`);
  }
  if (Array.isArray(schema.enum)) parts.push(`enum: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.additionalProperties === false) parts.push('no other fields');
  return parts.join('; ');
}

export function SchemaView({ schema }: { schema: Schema }) {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return (
      <a href={`#schema-${name}`} style={code}>
        {name}
      </a>
    );
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  const properties = schema.properties as Record<string, Schema> | undefined;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const items = schema.items as Schema | undefined;
  const extra = constraints(schema);
  return (
    <span>
      <span style={code}>{typeLabel(schema)}</span>
      {extra && <span style={{ color: '#555' }}> ({extra})</span>}
      {typeof schema.description === 'string' && <span style={{ color: '#555' }}> — {schema.description}</span>}
      {items && (
        <span>
          {' '}
          of <SchemaView schema={items} />
        </span>
      )}
      {variants && (
        <ul>
          {variants.map((variant, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a static document; variants never move
            <li key={i}>
              <SchemaView schema={variant} />
            </li>
          ))}
        </ul>
      )}
      {properties && (
        <ul>
          {Object.entries(properties).map(([name, property]) => (
            <li key={name}>
              <strong style={code}>{name}</strong>
              {required.has(name) ? '' : '?'}: <SchemaView schema={property} />
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
