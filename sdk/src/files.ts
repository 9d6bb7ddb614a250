// Files going up (docs/api.md#uploads, #missions): a path (Node only — node:fs is imported only when a path is
// given, so browsers never load it), a Blob or File, or `{ name, data, type? }` with bytes — all
// turned into the multipart form the API reads: the body's fields as form fields, `tags`
// comma-separated, files under `files`.
import { localFailure } from './errors.js';
import { isTextType, typeByExtension } from './file-types.js';

export type FileInput = string | Blob | { name: string; data: Blob | Uint8Array; type?: string };

const baseName = (path: string) => path.split(/[\\/]/).pop() || 'file';
// Text types are declared by extension (the server admits them only when declared, docs/api.md#uploads);
// binary ones as octet-stream, and the server recognises them by their content.
const declaredType = (name: string) => {
  const type = typeByExtension(name);
  return isTextType(type) ? type! : 'application/octet-stream';
};

async function fromPath(path: string): Promise<File> {
  try {
    const { openAsBlob, promises } = await import('node:fs');
    // openAsBlob's own error for a missing file says only "Unable to open file as blob".
    await promises.access(path);
    const name = baseName(path);
    // openAsBlob reads lazily: a large file is streamed into the request, not held in memory.
    const blob = await openAsBlob(path, { type: declaredType(name) });
    return new File([blob], name, { type: blob.type });
  } catch (cause) {
    throw localFailure(`Could not read ${path}`, cause);
  }
}

/** One upload as a File with a name and a declared type. */
export async function toFile(input: FileInput): Promise<File> {
  if (typeof input === 'string') return fromPath(input);
  if (input instanceof File)
    return input.type ? input : new File([input], input.name, { type: declaredType(input.name) });
  if (input instanceof Blob) return new File([input], 'file', { type: input.type || 'application/octet-stream' });
  const type =
    input.type ?? (input.data instanceof Blob && input.data.type ? input.data.type : declaredType(input.name));
  return new File([input.data as BlobPart], input.name, { type });
}

export type FormFields = Record<
  string,
  string | number | boolean | readonly string[] | readonly object[] | null | undefined
>;

// docs/api.md#criteria: lists whose items may hold commas, or are objects, go as JSON text.
const JSON_FIELDS = new Set(['criteria', 'selfCheck', 'unmet']);

/** The multipart body: each field as text (arrays comma-separated, or JSON), then each file under `files`. */
export async function toFormData(fields: FormFields, files: readonly FileInput[]): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    form.append(
      name,
      JSON_FIELDS.has(name) ? JSON.stringify(value) : Array.isArray(value) ? value.join(',') : String(value),
    );
  }
  for (const file of await Promise.all(files.map(toFile))) form.append('files', file, file.name);
  return form;
}
