// Mission writes from the dashboard: JSON when no file comes along, multipart (with upload
// progress) when one does — the same fields either way, arrays comma-separated in forms (docs/api.md#missions),
// criteria and the lists naming them as JSON text (docs/api.md#criteria).
import { apiFetch } from './api-client';
import { withDeclaredType } from './file-types';
import { postMultipart, type UploadProgress } from './upload';

export type Fields = Record<string, string | number | string[] | readonly object[] | undefined>;

const JSON_FIELDS = new Set(['criteria', 'selfCheck', 'unmet']);

export interface MissionRequestOptions {
  files?: readonly File[];
  idempotencyKey?: string;
  onProgress?: (progress: UploadProgress) => void;
}

export function postMissionRequest<T>(path: string, fields: Fields, options: MissionRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {};
  const files = options.files ?? [];
  if (files.length === 0) {
    const json = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    return apiFetch<T>(path, { method: 'POST', json, headers });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined)
      form.append(
        name,
        JSON_FIELDS.has(name) ? JSON.stringify(value) : Array.isArray(value) ? value.join(',') : String(value),
      );
  }
  for (const file of files) form.append('files', withDeclaredType(file));
  return postMultipart<T>(path, form, { headers, onProgress: options.onProgress });
}
