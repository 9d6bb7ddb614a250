// Uploaded files wait on local disk until the whole request has been read and checked: only then
// are they written to the database, in the transaction of the change they belong to. So a request
// holds at most one chunk in memory while reading, and nothing is stored when any part fails.
import 'server-only';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { ApiError } from '../errors';
import { classifyFile, isTextType, parseDeclaredType } from './file-policy';
import { sanitizeFilename } from './filename';
import { FileInspector } from './inspect';
import { UPLOAD_LIMITS } from './limits';
import type { PartHeaders } from './multipart';

/** A checked upload, on disk, not yet stored. */
export interface SpooledFile {
  path: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export async function createSpoolDir(): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'taskmarket-upload-'));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes one part to `dir`, enforcing the size limit as the bytes arrive, then decides its type.
 * Answers undefined for the empty, nameless part a browser sends for an untouched file input.
 */
export async function spoolFile(
  dir: string,
  index: number,
  part: PartHeaders,
  body: AsyncIterable<Buffer>,
): Promise<SpooledFile | undefined> {
  const path = join(dir, String(index));
  const filename = sanitizeFilename(part.filename ?? '');
  const label = `files[${index}] (${filename})`;
  const declared = parseDeclaredType(part.contentType).type;
  const inspector = new FileInspector(isTextType(declared));
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  // Rejects on a write error (disk full): a file cut short on disk must never be stored.
  const written = finished(out);
  written.catch(() => {}); // awaited below, or abandoned when the part fails first
  try {
    for await (const chunk of body) {
      if (inspector.size + chunk.length > UPLOAD_LIMITS.maxFileBytes) {
        throw new ApiError(413, `A file is larger than ${UPLOAD_LIMITS.maxFileBytes} bytes`, [label]);
      }
      inspector.update(chunk);
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), written]);
    }
    out.end();
    await written;
  } finally {
    // Closed before the spool directory is removed, whatever happened.
    if (!out.closed) {
      out.destroy();
      await once(out, 'close');
    }
  }
  const facts = inspector.finish();
  if (part.filename === '' && facts.size === 0) {
    await unlink(path);
    return undefined;
  }
  const sniffed = (await fileTypeFromFile(path))?.mime;
  const json = declared === 'application/json' && !sniffed ? await parsesAsJson(path) : undefined;
  const verdict = classifyFile(part.contentType, { ...facts, sniffed, json });
  if (!verdict.ok) throw new ApiError(415, 'File type not allowed', [`${label}: ${verdict.reason}`]);
  return { path, filename, contentType: verdict.contentType, size: facts.size, sha256: facts.sha256 };
}

async function parsesAsJson(path: string): Promise<boolean> {
  try {
    JSON.parse((await readFile(path, 'utf8')).replace(/^\ufeff/, ''));
    return true;
  } catch {
    return false;
  }
}
