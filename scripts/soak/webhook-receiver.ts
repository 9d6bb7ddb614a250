// The soak's webhook receiver: a local HTTP server with one URL per subscribed user, checking each
// delivery's Standard Webhooks signature with that endpoint's secret and counting what arrived.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface WebhookReceiver {
  /** The URL for `name`; `trust(secret)` once the API has shown the endpoint's secret. */
  endpoint(name: string): { url: string; trust(secret: string): void };
  counts(): { delivered: number; duplicates: number; badSignatures: number; byEvent: Record<string, number> };
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const verifiers = new Map<string, Webhook>();
  const seen = new Set<string>();
  const byEvent: Record<string, number> = {};
  let duplicates = 0;
  let badSignatures = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verifier = verifiers.get(request.url ?? '');
      try {
        if (!verifier) throw new Error('unknown endpoint');
        const event = verifier.verify(body, request.headers as Record<string, string>) as {
          type?: string;
          event?: string;
        };
        const id = String(request.headers['webhook-id']);
        if (seen.has(id)) duplicates += 1;
        seen.add(id);
        const type = event.type ?? event.event ?? 'unknown';
        byEvent[type] = (byEvent[type] ?? 0) + 1;
        response.writeHead(204).end();
      } catch {
        badSignatures += 1;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint(name) {
      const path = `/hooks/${name}`;
      return { url: `http://127.0.0.1:${port}${path}`, trust: (secret) => verifiers.set(path, new Webhook(secret)) };
    },
    counts: () => ({ delivered: seen.size, duplicates, badSignatures, byEvent: { ...byEvent } }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
