import { describe, expect, test } from 'vitest';
import { classifyFile, type FileFacts } from '@/lib/uploads/file-policy';
import { contentDisposition, sanitizeFilename } from '@/lib/uploads/filename';
import { FileInspector } from '@/lib/uploads/inspect';
import { MultipartReader } from '@/lib/uploads/multipart';

const text: FileFacts = { sniffed: undefined, utf8: true, nul: false, documentMarkup: false, embeddedMarkup: false };

describe('classifyFile', () => {
  test('default: a sniffed allowed type is stored as sniffed, whatever generic type was declared', () => {
    expect(classifyFile('image/png', { ...text, sniffed: 'image/png' })).toEqual({
      ok: true,
      contentType: 'image/png',
    });
    expect(classifyFile('application/octet-stream', { ...text, sniffed: 'application/pdf' })).toEqual({
      ok: true,
      contentType: 'application/pdf',
    });
    expect(classifyFile(undefined, { ...text, sniffed: 'image/webp' })).toEqual({
      ok: true,
      contentType: 'image/webp',
    });
    expect(classifyFile('image/jpg', { ...text, sniffed: 'image/jpeg' })).toEqual({
      ok: true,
      contentType: 'image/jpeg',
    });
  });
  test('error: a sniffed type off the allow-list or contradicting the declaration is refused', () => {
    expect(classifyFile('application/octet-stream', { ...text, sniffed: 'application/x-elf' })).toMatchObject({
      ok: false,
    });
    expect(classifyFile('image/png', { ...text, sniffed: 'image/gif' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not the declared/),
    });
    expect(classifyFile('text/plain', { ...text, sniffed: 'image/png' })).toMatchObject({ ok: false });
    expect(classifyFile('image/svg+xml', { ...text, sniffed: 'application/xml' })).toMatchObject({ ok: false });
  });
  test('error: an image carrying HTML is refused (polyglot)', () => {
    expect(classifyFile('image/png', { ...text, sniffed: 'image/png', embeddedMarkup: true })).toMatchObject({
      ok: false,
    });
  });
  test('error: without a magic number only declared, valid text passes', () => {
    expect(classifyFile('text/plain; charset=utf-8', text)).toEqual({ ok: true, contentType: 'text/plain' });
    expect(classifyFile('text/markdown', text)).toEqual({ ok: true, contentType: 'text/markdown' });
    expect(classifyFile('application/json', { ...text, json: true })).toEqual({
      ok: true,
      contentType: 'application/json',
    });
    expect(classifyFile('application/json', { ...text, json: false })).toMatchObject({ ok: false });
    expect(classifyFile('image/png', text)).toMatchObject({ ok: false });
    expect(classifyFile('application/octet-stream', text)).toMatchObject({ ok: false });
    expect(classifyFile('text/html', text)).toMatchObject({ ok: false, reason: 'type text/html is not allowed' });
    expect(classifyFile('image/svg+xml', text)).toMatchObject({ ok: false });
    expect(classifyFile('text/plain', { ...text, utf8: false })).toMatchObject({ ok: false });
    expect(classifyFile('text/csv', { ...text, nul: true })).toMatchObject({ ok: false });
    expect(classifyFile('text/plain; charset=iso-8859-1', text)).toMatchObject({ ok: false });
    expect(classifyFile('text/plain', { ...text, documentMarkup: true })).toMatchObject({ ok: false });
  });
});

describe('FileInspector', () => {
  const inspect = (chunks: (string | Buffer)[], isText = true) => {
    const inspector = new FileInspector(isText);
    for (const chunk of chunks) inspector.update(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return inspector.finish();
  };
  test('behavior: hashes and sizes the stream', () => {
    expect(inspect(['ab', 'c'])).toMatchObject({
      size: 3,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    });
  });
  test('behavior: finds invalid UTF-8, including a sequence cut at the end and one split across chunks', () => {
    expect(inspect([Buffer.from([0xe2, 0x82]), Buffer.from([0xac])])).toMatchObject({ utf8: true });
    expect(inspect([Buffer.from([0xe2, 0x82])])).toMatchObject({ utf8: false });
    expect(inspect([Buffer.from([0xff])])).toMatchObject({ utf8: false });
    expect(inspect(['a\u0000b'])).toMatchObject({ nul: true });
  });
  test('behavior: recognises documents by their start and tags split across chunks', () => {
    expect(inspect(['\ufeff  <!DOCTYPE html><p>'])).toMatchObject({ documentMarkup: true });
    expect(inspect(['<svg xmlns="http://www.w3.org/2000/svg">'])).toMatchObject({ documentMarkup: true });
    expect(inspect(['#!/bin/sh\nrm -rf /'])).toMatchObject({ documentMarkup: true });
    expect(inspect(['# Title\n\nuse <b>bold</b>'])).toMatchObject({ documentMarkup: false, embeddedMarkup: false });
    expect(inspect(['\x89PNG....<scr', 'ipt>alert(1)</script>'], false)).toMatchObject({ embeddedMarkup: true });
  });
});

describe('sanitizeFilename and contentDisposition', () => {
  test('behavior: paths, controls, quotes and direction marks are gone', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('..\\..\\windows\\win.ini')).toBe('win.ini');
    expect(sanitizeFilename('a\r\nSet-Cookie: x=1.txt')).toBe('aSet-Cookie_ x=1.txt');
    expect(sanitizeFilename('say "hi".txt')).toBe('say _hi_.txt');
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFilename('..')).toBe('file');
    expect(sanitizeFilename('')).toBe('file');
    expect(sanitizeFilename('.bashrc')).toBe('bashrc');
    expect(sanitizeFilename('café.png')).toBe('café.png');
  });
  test('behavior: a 1,000-character name is cut to 200, keeping its extension', () => {
    const name = sanitizeFilename(`${'a'.repeat(1000)}.pdf`);
    expect(Array.from(name)).toHaveLength(200);
    expect(name.endsWith('.pdf')).toBe(true);
    expect(Array.from(sanitizeFilename('😀'.repeat(300)))).toHaveLength(200);
  });
  test('behavior: the header carries an ASCII fallback and the exact UTF-8 name, nothing raw', () => {
    const header = contentDisposition('café "x";.png');
    expect(header).toBe(`attachment; filename="caf_ _x_;.png"; filename*=UTF-8''caf%C3%A9%20%22x%22%3B.png`);
    expect(contentDisposition(sanitizeFilename('a\r\nb'))).not.toMatch(/[\r\n]/);
  });
});

describe('MultipartReader', () => {
  const boundary = 'XyZ123';
  const body = [
    'preamble\r\n',
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n`,
    `--${boundary}  \r\nContent-Disposition: form-data; name="files"; filename="x.txt"; ` +
      `filename*=UTF-8''%C3%A9t%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\nline 1 ` +
      `--${boundary} inline\r\n-${boundary}\r\n`,
    `--${boundary}--\r\nepilogue`,
  ].join('');

  async function readAll(bytes: Buffer, chunkSize: number) {
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + chunkSize));
        offset += chunkSize;
      },
    });
    const reader = new MultipartReader(stream.getReader(), boundary, { maxHeaderBytes: 1024 });
    const parts: { name: string; filename?: string; type?: string; content: string }[] = [];
    for (let part = await reader.nextPart(true); part; part = await reader.nextPart(false)) {
      const chunks: Buffer[] = [];
      for await (const chunk of reader.body()) chunks.push(chunk);
      parts.push({
        name: part.name,
        filename: part.filename,
        type: part.contentType,
        content: Buffer.concat(chunks).toString(),
      });
    }
    return parts;
  }

  test('behavior: the same parts whatever the chunking, filename* winning over filename', async () => {
    const expected = [
      { name: 'title', filename: undefined, type: undefined, content: 'Hello' },
      {
        name: 'files',
        filename: 'été.txt',
        type: 'text/plain',
        content: `line 1 --${boundary} inline\r\n-${boundary}`,
      },
    ];
    for (const size of [1, 2, 3, 7, 13, 64, 4096]) expect(await readAll(Buffer.from(body), size)).toEqual(expected);
  });
  test('error: a body cut before the closing boundary is malformed', async () => {
    const cut = Buffer.from(body.slice(0, body.indexOf('line 1') + 3));
    await expect(readAll(cut, 5)).rejects.toMatchObject({ status: 400, message: 'Malformed multipart body' });
  });
  test('error: no boundary, headers without a name, garbage after a boundary', async () => {
    await expect(readAll(Buffer.from('x'.repeat(5000)), 100)).rejects.toMatchObject({ status: 400 });
    await expect(
      readAll(Buffer.from(`--${boundary}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${boundary}--`), 10),
    ).rejects.toMatchObject({ status: 400 });
    await expect(readAll(Buffer.from(`--${boundary}junk\r\n\r\nx\r\n--${boundary}--`), 10)).rejects.toMatchObject({
      status: 400,
    });
  });
});
