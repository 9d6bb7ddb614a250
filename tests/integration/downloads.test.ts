// docs/api.md#files: a download streams from the database in slices — an instance's memory per
// download stays under 2 MB whatever the file's size — and is limited per IP.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { GET as fileRoute } from '@/app/api/missions/[id]/files/[fileId]/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { UPLOAD_LIMITS } from '@/lib/uploads/limits';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { randomIp } from '../support/http';
import { missionInput, newClient } from '../support/missions';
import { png, pngOfSize, sha256, upload } from '../support/multipart';

useTestEnvironment({ ...BOOKKEEPING, DOWNLOAD_RATE_LIMIT_PER_MINUTE: '5' });

// The collector, without starting the test process with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function downloadRequest(id: string, fileId: string, ip: string) {
  const headers = new Headers({ [SOCKET_ADDRESS_HEADER]: stampedAddress(ip) });
  return fileRoute(new Request(`http://localhost:3000/api/missions/${id}/files/${fileId}`, { headers }), {
    params: Promise.resolve({ id, fileId }),
  });
}

/** A public mission with one attachment of `content`; answers the ids. */
async function attach(content: Buffer) {
  const { tags, ...fields } = missionInput();
  const client = await newClient();
  const created = await upload(createRoute, {
    token: client.token,
    fields: { ...fields, tags: tags.join(',') },
    files: [{ filename: 'big.png', contentType: 'image/png', content }],
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, fileId: created.body.attachments[0].id as string };
}

describe('GET /api/missions/{id}/files/{fileId}', () => {
  test('behavior: a 10 MB file streams out whole while the instance heap grows by less than 2 MB', async () => {
    // A PNG padded to the upload limit: the largest file a download can ever serve.
    const content = pngOfSize(UPLOAD_LIMITS.maxFileBytes);
    const { id, fileId } = await attach(content);
    const digest = sha256(content);

    gc();
    const before = process.memoryUsage().heapUsed;
    const response = await downloadRequest(id, fileId, randomIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(content.length));
    const hash = (await import('node:crypto')).createHash('sha256');
    let received = 0;
    let peak = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
      received += value.byteLength;
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    }
    expect(received).toBe(content.length);
    expect(hash.digest('hex')).toBe(digest);
    expect(peak).toBeLessThan(2 * 1024 * 1024);
  });

  test('error: the download limit per IP answers 429 with Retry-After; another IP is not affected', async () => {
    const { id, fileId } = await attach(png());
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await downloadRequest(id, fileId, ip);
      await response.arrayBuffer();
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await downloadRequest(id, fileId, randomIp()).then((r) => r.status)).toBe(200);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test('behavior: a client that stops reading releases the download', async () => {
    const { id, fileId } = await attach(pngOfSize(1024 * 1024));
    const response = await downloadRequest(id, fileId, randomIp());
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    expect((await downloadRequest(id, fileId, randomIp())).status).toBe(200);
  });
});
