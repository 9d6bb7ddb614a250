// /docs: the OpenAPI document rendered on the server as plain HTML — no client script, nothing
// fetched from a CDN. The same document is served as JSON at /api/openapi.json.
import type { Metadata } from 'next';
import { openApiDocument } from '@/app/api/documented-routes';
import { OperationView } from './operation-view';
import { SchemaView } from './schema-view';

export const metadata: Metadata = { title: 'taskmarket API' };
export const dynamic = 'force-static';

export default function DocsPage() {
  const doc = openApiDocument();
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    // biome-ignore lint/suspicious/noExplicitAny: an operation object is rendered as untyped JSON
    Object.entries(methods as Record<string, any>).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <main>
      <h1>
        {doc.info.title} <small style={{ color: '#555' }}>{doc.info.version}</small>
      </h1>
      <p>{doc.info.description}</p>
      <p>
        Errors are <code>{'{ "error": string, "details"?: string[] }'}</code>. Machine-readable:{' '}
        <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}).
      </p>
      <nav>
        {doc.tags.map(({ name }) => (
          <p key={name}>
            <strong>{name}</strong>:{' '}
            {operations
              .filter(({ op }) => op.tags[0] === name)
              .map(({ path, method, op }) => (
                <a
                  key={op.operationId}
                  href={`#${op.operationId}`}
                  style={{ marginRight: '0.75rem', whiteSpace: 'nowrap' }}
                >
                  {method.toUpperCase()} {path}
                </a>
              ))}
          </p>
        ))}
      </nav>
      {doc.tags.map(({ name }) => (
        <section key={name}>
          <h2>{name}</h2>
          {operations
            .filter(({ op }) => op.tags[0] === name)
            .map(({ path, method, op }) => (
              <OperationView key={op.operationId} path={path} method={method} op={op} />
            ))}
        </section>
      ))}
      <h2>Error responses</h2>
      <ul>
        {Object.entries(doc.components.responses).map(([name, response]) => (
          <li key={name} id={`response-${name}`}>
            <strong>{name}</strong>: {response.description}
          </li>
        ))}
      </ul>
      <h2>Schemas</h2>
      {Object.entries(doc.components.schemas).map(([name, schema]) => (
        <section key={name} id={`schema-${name}`}>
          <h3 style={{ fontFamily: 'ui-monospace, monospace', fontSize: '1rem' }}>{name}</h3>
          <SchemaView schema={schema} />
        </section>
      ))}
    </main>
  );
}
