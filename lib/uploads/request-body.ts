// The body of an endpoint that takes JSON, or multipart/form-data when files come along
// (docs/api.md#missions): read within the limits of docs/api.md#uploads, files spooled and checked, the spool removed
// whatever happens. Takes the raw stream and the headers, never the Request.
import 'server-only';
import { ApiError } from '../errors';
import { UPLOAD_LIMITS } from './limits';
import { boundaryOf, MultipartReader } from './multipart';
import { createSpoolDir, type SpooledFile, spoolFile } from './spool';
import { readJsonStream } from './body';

export interface RequestBody {
  /** JSON: the parsed value ({} for an empty body). Multipart: each field's text. */
  fields: unknown;
  files: SpooledFile[];
  multipart: boolean;
}

/** Reads the body and runs `use` with it; spooled files are gone when this returns or throws. */
export async function withRequestBody<T>(
  stream: ReadableStream<Uint8Array> | null,
  headers: Headers,
  use: (body: RequestBody) => Promise<T>,
): Promise<T> {
  const contentType = headers.get('content-type') ?? '';
  const contentLength = headers.get('content-length');
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    // docs/api.md#conventions: JSON or multipart, nothing else (415). Nothing sent is an empty object.
    const fields = (await readJsonStream(stream, headers, UPLOAD_LIMITS.maxJsonBytes)) ?? {};
    return use({ fields, files: [], multipart: false });
  }
  const most = UPLOAD_LIMITS.maxFiles * UPLOAD_LIMITS.maxFileBytes + 1024 * 1024;
  if (Number(contentLength ?? 0) > most) throw new ApiError(413, `Body larger than ${most} bytes`);
  if (!stream) throw new ApiError(400, 'Malformed multipart body', ['Empty body']);
  const boundary = boundaryOf(contentType);
  const spool = await createSpoolDir();
  const reader = new MultipartReader(stream.getReader(), boundary, { maxHeaderBytes: UPLOAD_LIMITS.maxHeaderBytes });
  try {
    const { fields, files } = await readForm(reader, spool.dir);
    return await use({ fields, files, multipart: true });
  } finally {
    await reader.cancel();
    await spool.dispose();
  }
}

async function readForm(reader: MultipartReader, dir: string) {
  const fields: Record<string, string> = {};
  const files: SpooledFile[] = [];
  let fileParts = 0;
  let fieldParts = 0;
  for (let part = await reader.nextPart(true); part; part = await reader.nextPart(false)) {
    if (part.filename !== undefined) {
      if (part.name !== 'files')
        throw new ApiError(400, 'Validation failed', [`${part.name}: files must be sent as "files"`]);
      // Counted at the part's header: the 11th file is refused before any of it is read.
      if (++fileParts > UPLOAD_LIMITS.maxFiles)
        throw new ApiError(400, `At most ${UPLOAD_LIMITS.maxFiles} files per request`);
      const file = await spoolFile(dir, fileParts - 1, part, reader.body());
      if (file) files.push(file);
      continue;
    }
    if (++fieldParts > UPLOAD_LIMITS.maxFields) throw new ApiError(400, 'Too many form fields');
    if (Object.hasOwn(fields, part.name))
      throw new ApiError(400, 'Validation failed', [`${part.name}: given more than once`]);
    fields[part.name] = await readField(part.name, reader.body());
  }
  return { fields, files };
}

async function readField(name: string, body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > UPLOAD_LIMITS.maxFieldBytes)
      throw new ApiError(413, `Field larger than ${UPLOAD_LIMITS.maxFieldBytes} bytes`, [name]);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
