// One operation of the OpenAPI document: who may call it, its parameters, body and responses.
import { refName, SchemaView } from './schema-view';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the untyped JSON it is
type Json = Record<string, any>;

const METHOD_COLORS: Record<string, string> = {
  get: '#1f6feb',
  post: '#1a7f37',
  patch: '#9a6700',
  put: '#9a6700',
  delete: '#cf222e',
};

function security(requirements: Json[]): string {
  if (requirements.length === 0) return 'public';
  return requirements.map((r) => Object.keys(r).join(' + ') || 'anonymous').join(' or ');
}

export function OperationView({ method, path, op }: { method: string; path: string; op: Json }) {
  const parameters = (op.parameters ?? []) as Json[];
  const body = op.requestBody?.content as Record<string, Json> | undefined;
  return (
    <section id={op.operationId} style={{ borderTop: '1px solid #ddd', padding: '0.75rem 0' }}>
      <h3 style={{ margin: 0, fontFamily: 'ui-monospace, monospace', fontSize: '1rem' }}>
        <span style={{ color: METHOD_COLORS[method], textTransform: 'uppercase' }}>{method}</span> {path}
      </h3>
      <p style={{ margin: '0.25rem 0' }}>
        {op.summary}. <em>Auth: {security(op.security ?? [])}.</em> {op.description}
      </p>
      {parameters.length > 0 && (
        <>
          <h4 style={{ margin: '0.5rem 0 0' }}>Parameters</h4>
          <ul>
            {parameters.map((p) => (
              <li key={`${p.in}:${p.name}`}>
                <strong>{p.name}</strong> ({p.in}
                {p.required ? ', required' : ''}): <SchemaView schema={p.schema} />
                {p.description && <span> — {p.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {body && (
        <>
          <h4 style={{ margin: '0.5rem 0 0' }}>Body</h4>
          <ul>
            {Object.entries(body).map(([type, media]) => (
              <li key={type}>
                {type}: <SchemaView schema={media.schema} />
              </li>
            ))}
          </ul>
        </>
      )}
      <h4 style={{ margin: '0.5rem 0 0' }}>Responses</h4>
      <ul>
        {Object.entries(op.responses as Record<string, Json>).map(([status, response]) => (
          <li key={status}>
            <strong>{status}</strong>{' '}
            {response.$ref ? (
              <a href={`#response-${String(response.$ref).split('/').pop()}`}>
                {String(response.$ref).split('/').pop()}
              </a>
            ) : (
              <>
                {response.description}
                {Object.entries((response.content ?? {}) as Record<string, Json>).map(([type, media]) => (
                  <span key={type}>
                    {' '}
                    — {type}:{' '}
                    {media.schema?.$ref ? (
                      <a href={`#schema-${refName(media.schema.$ref)}`}>{refName(media.schema.$ref)}</a>
                    ) : (
                      <SchemaView schema={media.schema} />
                    )}
                  </span>
                ))}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
