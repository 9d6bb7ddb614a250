import { beforeAll, describe, expect, test } from 'vitest';
import { GET as fileRoute } from '@/app/api/missions/[id]/files/[fileId]/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { randomIp } from '../support/http';
import { act, filesOf, missionIn, missionInput, newAgent, newClient, ok, type Party } from '../support/missions';
import { type FilePart, png, sha256, uniqueText, upload } from '../support/multipart';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

async function download(viewer: Party | undefined, id: string, fileId: string) {
  const headers = new Headers({ [SOCKET_ADDRESS_HEADER]: stampedAddress(randomIp()) });
  if (viewer) headers.set('authorization', `Bearer ${viewer.token}`);
  const response = await fileRoute(
    new Request(`http://localhost:3000/api/missions/${id}/files/${fileId}`, { headers }),
    {
      params: Promise.resolve({ id, fileId }),
    },
  );
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function postWithFiles(client: Party, files: FilePart[]) {
  const { tags, ...fields } = missionInput();
  const response = await upload(createRoute, {
    token: client.token,
    fields: { ...fields, tags: tags.join(',') },
    files,
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function deliver(agent: Party, id: string, files: FilePart[]) {
  const response = await upload(submitRoute, {
    token: agent.token,
    params: { id },
    fields: { note: 'Attached.' },
    files,
  });
  expect(response.status).toBe(200);
  return response.body.submission.files as { id: string }[];
}

let agent: Party;
let other: Party;
beforeAll(async () => {
  [agent, other] = await Promise.all([newAgent(), newAgent()]);
});

describe('GET /api/missions/{id}/files/{fileId}', () => {
  test('default: the stored bytes, the stored type, as an attachment that cannot run', async () => {
    const client = await newClient();
    const image = png();
    const mission = await postWithFiles(client, [
      { filename: 'photo.png', contentType: 'application/octet-stream', content: image },
    ]);
    const file = mission.attachments[0];
    const response = await download(undefined, mission.id, file.id);
    expect(response.status).toBe(200);
    expect(response.bytes.equals(image)).toBe(true);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(image.length),
      'content-disposition': `attachment; filename="photo.png"; filename*=UTF-8''photo.png`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
    });
  });

  test('behavior: text is served as text with its charset; a hostile name cannot break the header', async () => {
    const client = await newClient();
    const mission = await postWithFiles(client, [
      {
        filename: '',
        disposition: `form-data; name="files"; filename*=UTF-8''r%C3%A9sum%C3%A9%22%0D%0AX-Evil%3A%201.txt`,
        contentType: 'text/plain',
        content: uniqueText(),
      },
    ]);
    const response = await download(client, mission.id, mission.attachments[0].id);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="r_sum__X-Evil_ 1.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9_X-Evil_%201.txt`,
    );
    expect(response.headers.get('x-evil')).toBeNull();
  });

  test('behavior: the same bytes are stored once and linked twice', async () => {
    const [a, b] = await Promise.all([newClient(), newClient()]);
    const image = png();
    const first = await postWithFiles(a, [{ filename: 'one.png', contentType: 'image/png', content: image }]);
    const second = await postWithFiles(b, [{ filename: 'two.png', contentType: 'image/png', content: image }]);
    expect(first.attachments[0].sha256).toBe(sha256(image));
    expect(second.attachments[0]).toMatchObject({ sha256: sha256(image), filename: 'two.png' });
    expect(first.attachments[0].id).not.toBe(second.attachments[0].id);
    expect((await download(undefined, second.id, second.attachments[0].id)).bytes.equals(image)).toBe(true);
  });

  test('behavior: deliverables are for the owner and the assigned agent only', async () => {
    const { client, id } = await missionIn('ACCEPTED', { agent });
    const [file] = await deliver(agent, id, [{ filename: 'result.png', contentType: 'image/png', content: png() }]);
    expect((await download(client, id, file!.id)).status).toBe(200);
    expect((await download(agent, id, file!.id)).status).toBe(200);
    expect((await download(other, id, file!.id)).status).toBe(404);
    expect((await download(await newClient(), id, file!.id)).status).toBe(404);
    expect((await download(undefined, id, file!.id)).status).toBe(404);
  });

  test('behavior: after a withdrawal the mission is public again but its old deliverables are not', async () => {
    const { client, id } = await missionIn('ACCEPTED', { agent });
    const [file] = await deliver(agent, id, [{ filename: 'draft.png', contentType: 'image/png', content: png() }]);
    await ok(act('contest', client, id, { reason: 'No.' }));
    await ok(act('cancel', agent, id));
    expect((await download(undefined, id, file!.id)).status).toBe(404);
    expect((await download(agent, id, file!.id)).status).toBe(404);
    await ok(act('accept', other, id));
    expect((await download(other, id, file!.id)).status).toBe(404);
    expect((await download(client, id, file!.id)).status).toBe(200);
  });

  test('behavior: the attachments of a mission that is no longer OPEN are for its parties only', async () => {
    const client = await newClient();
    const mission = await postWithFiles(client, [
      { filename: 'brief.txt', contentType: 'text/plain', content: uniqueText() },
    ]);
    const fileId = mission.attachments[0].id;
    expect((await download(other, mission.id, fileId)).status).toBe(200);
    await ok(act('accept', agent, mission.id));
    expect((await download(other, mission.id, fileId)).status).toBe(404);
    expect((await download(agent, mission.id, fileId)).status).toBe(200);
  });

  test('error: unknown, malformed or mismatched ids are 404', async () => {
    const client = await newClient();
    const a = await postWithFiles(client, [{ filename: 'a.txt', contentType: 'text/plain', content: uniqueText() }]);
    const b = await postWithFiles(client, [{ filename: 'b.txt', contentType: 'text/plain', content: uniqueText() }]);
    expect((await download(client, b.id, a.attachments[0].id)).status).toBe(404);
    expect((await download(client, a.id, crypto.randomUUID())).status).toBe(404);
    expect((await download(client, a.id, 'nope')).status).toBe(404);
    expect((await download(client, 'nope', a.attachments[0].id)).status).toBe(404);
    expect(await filesOf(a.id)).toHaveLength(1);
  });
});
