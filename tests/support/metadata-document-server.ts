// A client's https server on loopback for Client ID Metadata Document tests
// (docs/api.md#client-id-metadata-documents): a self-signed certificate made now with openssl (no key
// is committed), trusted by the app only through WEBHOOK_TEST_CA, which config honours only with
// WEBHOOK_ALLOW_PRIVATE. Each path answers what the test set for it; hits are counted per path.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

export interface DocumentServer {
  origin: string;
  /** The certificate (PEM) to trust. */
  ca: string;
  serve(path: string, answer: Answer): void;
  hits(path: string): number;
  close(): Promise<void>;
}

function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const { key, cert } = selfSigned();
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { status: 404, body: 'not found' };
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    serve: (path, answer) => void answers.set(path, answer),
    hits: (path) => counts.get(path) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
