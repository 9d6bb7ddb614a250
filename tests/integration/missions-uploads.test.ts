import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { POST as createRoute } from '@/app/api/missions/route';
import { UPLOAD_LIMITS } from '@/lib/uploads';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { blobExists, missionCountOf, missionInput, newClient, type Party } from '../support/missions';
import { type FilePart, pdf, png, sha256, uniqueText, upload } from '../support/multipart';

useTestEnvironment(BOOKKEEPING);

const MB10 = UPLOAD_LIMITS.maxFileBytes;
const fields = () => {
  const { tags, ...rest } = missionInput();
  return { ...rest, tags: tags.join(',') } as Record<string, string>;
};
const create = (client: Party, files: FilePart[], extra: { truncateAt?: number } = {}) =>
  upload(createRoute, { token: client.token, fields: fields(), files, ...extra });

/** The request failed with `status` and left nothing behind: no mission, none of the blobs. */
async function expectNothingStored(client: Party, files: FilePart[], response: { status: number }, status: number) {
  expect(response.status).toBe(status);
  expect(await missionCountOf(client.id)).toBe(0);
  for (const file of files) expect(await blobExists(sha256(file.content))).toBe(false);
}

describe('POST /api/missions with attachments', () => {
  test('default: files are stored by content, typed by sniffing, listed on the mission', async () => {
    const client = await newClient();
    const image = png();
    const notes = uniqueText();
    const response = await create(client, [
      { filename: 'photo.png', contentType: 'application/octet-stream', content: image },
      { filename: 'brief.md', contentType: 'text/markdown; charset=utf-8', content: notes },
      { filename: 'spec.pdf', contentType: 'application/pdf', content: pdf() },
    ]);
    expect(response.status).toBe(201);
    expect(response.body.tags).toEqual(['vision', 'labeling']);
    expect(response.body.attachments).toEqual([
      {
        id: expect.any(String),
        filename: 'photo.png',
        contentType: 'image/png',
        size: image.length,
        sha256: sha256(image),
      },
      {
        id: expect.any(String),
        filename: 'brief.md',
        contentType: 'text/markdown',
        size: Buffer.byteLength(notes),
        sha256: sha256(notes),
      },
      expect.objectContaining({ filename: 'spec.pdf', contentType: 'application/pdf' }),
    ]);
    expect(await blobExists(sha256(image))).toBe(true);
  });

  test('behavior: a file of exactly 10 MB is admitted', async () => {
    const client = await newClient();
    const image = png(Buffer.alloc(MB10 - png(Buffer.alloc(0)).length, 7));
    expect(image.length).toBe(MB10);
    const response = await create(client, [{ filename: 'big.png', contentType: 'image/png', content: image }]);
    expect(response.status).toBe(201);
    expect(response.body.attachments[0]).toMatchObject({ size: MB10, sha256: sha256(image) });
  });

  test('error: 10 MB + 1 byte is 413 and nothing is stored, not even the files before it', async () => {
    const client = await newClient();
    const first = { filename: 'ok.png', contentType: 'image/png', content: png() };
    const big = {
      filename: 'big.png',
      contentType: 'image/png',
      content: png(Buffer.alloc(MB10 + 1 - png(Buffer.alloc(0)).length, 1)),
    };
    await expectNothingStored(client, [first, big], await create(client, [first, big]), 413);
  });

  test('error: 11 files are 400 and nothing is stored', async () => {
    const client = await newClient();
    const files = Array.from({ length: 11 }, (_, i) => ({
      filename: `${i}.txt`,
      contentType: 'text/plain',
      content: uniqueText(),
    }));
    const response = await create(client, files);
    await expectNothingStored(client, files, response, 400);
    expect(response.body.error).toBe('At most 10 files per request');
  });

  test('error: HTML declared as PNG is 415', async () => {
    const client = await newClient();
    const html = {
      filename: 'cat.png',
      contentType: 'image/png',
      content: `<html><body><script>alert(1)</script>${uniqueText()}`,
    };
    const response = await create(client, [html]);
    await expectNothingStored(client, [html], response, 415);
    expect(response.body.details[0]).toMatch(/^files\[0\] \(cat\.png\): /);
  });

  test('error: SVG with a script is 415 whatever it is declared as', async () => {
    const client = await newClient();
    const svg =
      `<?xml version="1.0"?><svg ` +
      `xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><!-- ` +
      `${uniqueText()} --></svg>`;
    for (const contentType of ['image/svg+xml', 'image/png', 'text/plain', 'application/octet-stream']) {
      const file = { filename: 'logo.svg', contentType, content: svg };
      await expectNothingStored(client, [file], await create(client, [file]), 415);
    }
    const bare = {
      filename: 'logo.txt',
      contentType: 'text/plain',
      content: `<svg onload="alert(1)">${uniqueText()}</svg>`,
    };
    await expectNothingStored(client, [bare], await create(client, [bare]), 415);
  });

  test('error: a PNG/HTML polyglot is 415', async () => {
    const client = await newClient();
    const polyglot = png(Buffer.from(`<html><script>fetch('/api/auth/me')</script>${uniqueText()}</html>`));
    for (const contentType of ['image/png', 'text/html']) {
      const file = { filename: 'poly.png', contentType, content: polyglot };
      await expectNothingStored(client, [file], await create(client, [file]), 415);
    }
  });

  test('error: a sniffed type that contradicts the declared one, or is not on the list, is 415', async () => {
    const client = await newClient();
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), randomBytes(16)]);
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(64)]);
    for (const file of [
      { filename: 'a.png', contentType: 'image/png', content: gif },
      { filename: 'run', contentType: 'application/octet-stream', content: elf },
      { filename: 'a.txt', contentType: 'text/plain', content: png() },
      { filename: 'x.bin', contentType: 'application/octet-stream', content: randomBytes(64) },
    ]) {
      await expectNothingStored(client, [file], await create(client, [file]), 415);
    }
  });

  test('behavior: text types pass only with valid content', async () => {
    const client = await newClient();
    const good: FilePart[] = [
      { filename: 'a.txt', contentType: 'text/plain', content: uniqueText('héllo') },
      { filename: 'a.csv', contentType: 'text/csv', content: `a,b\n1,2\n# ${uniqueText()}` },
      { filename: 'a.json', contentType: 'application/json', content: JSON.stringify({ note: uniqueText() }) },
    ];
    const response = await create(client, good);
    expect(response.status).toBe(201);
    expect(response.body.attachments.map((f: { contentType: string }) => f.contentType)).toEqual([
      'text/plain',
      'text/csv',
      'application/json',
    ]);

    const other = await newClient();
    for (const file of [
      {
        filename: 'bad.txt',
        contentType: 'text/plain',
        content: Buffer.concat([Buffer.from(uniqueText()), Buffer.from([0xc3, 0x28])]),
      },
      { filename: 'nul.csv', contentType: 'text/csv', content: `a,b\u0000${uniqueText()}` },
      { filename: 'bad.json', contentType: 'application/json', content: `{"a": ${uniqueText()}` },
      { filename: 'page.md', contentType: 'text/markdown', content: `<!DOCTYPE html><title>${uniqueText()}</title>` },
      { filename: 'x.sh', contentType: 'text/plain', content: `#!/bin/sh\necho ${uniqueText()}` },
    ]) {
      await expectNothingStored(other, [file], await create(other, [file]), 415);
    }
  });

  test('behavior: hostile file names are stored sanitized', async () => {
    const client = await newClient();
    const long = `${'x'.repeat(1000)}.txt`;
    const response = await create(client, [
      { filename: '../../etc/passwd', contentType: 'text/plain', content: uniqueText() },
      {
        filename: '',
        disposition: `form-data; name="files"; filename*=UTF-8''evil%0D%0ASet-Cookie%3A%20a%3D1.txt`,
        contentType: 'text/plain',
        content: uniqueText(),
      },
      { filename: 'say \\"hi\\".txt', contentType: 'text/plain', content: uniqueText() },
      { filename: long, contentType: 'text/plain', content: uniqueText() },
    ]);
    expect(response.status).toBe(201);
    const names = response.body.attachments.map((f: { filename: string }) => f.filename);
    expect(names.slice(0, 3)).toEqual(['passwd', 'evilSet-Cookie_ a=1.txt', 'say _hi_.txt']);
    expect(names[3]).toHaveLength(200);
    expect(names[3].endsWith('.txt')).toBe(true);
  });

  test('error: a truncated multipart body is 400 and nothing is stored', async () => {
    const client = await newClient();
    const files = [
      { filename: 'a.png', contentType: 'image/png', content: png() },
      { filename: 'b.txt', contentType: 'text/plain', content: uniqueText().repeat(100) },
    ];
    const response = await create(client, files, { truncateAt: 900 });
    await expectNothingStored(client, files, response, 400);
    expect(response.body.error).toBe('Malformed multipart body');
  });

  test('error: files under another field name, repeated fields and unknown fields are 400', async () => {
    const client = await newClient();
    const file = { filename: 'a.txt', contentType: 'text/plain', content: uniqueText(), name: 'attachment' };
    await expectNothingStored(client, [file], await create(client, [file]), 400);
    const status = await upload(createRoute, { token: client.token, fields: { ...fields(), status: 'COMPLETED' } });
    expect(status).toMatchObject({ status: 400, body: { details: ['Unrecognized key: "status"'] } });
    expect(await missionCountOf(client.id)).toBe(0);
  });
});
