// Multipart posts with upload progress. fetch() cannot report upload progress in browsers, so
// uploads go through XMLHttpRequest, whose `upload` events count the bytes sent.
import { ApiRequestError, readApiResponse } from './api-client';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export function postMultipart<T>(
  path: string,
  form: FormData,
  options: { onProgress?: (progress: UploadProgress) => void; headers?: Record<string, string> } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      try {
        resolve(readApiResponse<T>(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
      } catch (error) {
        reject(error);
      }
    });
    xhr.addEventListener('error', () =>
      reject(new ApiRequestError(0, 'The upload was interrupted. Check your connection and try again.')),
    );
    xhr.send(form);
  });
}
