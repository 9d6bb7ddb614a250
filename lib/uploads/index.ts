// Uploads: streaming multipart reading, type checks against the allow-list, safe file names.
export type { SpooledFile } from './spool';
export { contentDisposition, sanitizeFilename } from './filename';
export { ALLOWED_TYPES } from './file-policy';
export { UPLOAD_LIMITS } from './limits';
