// Upload limits of docs/api.md#uploads, in one place for the parser, the error messages and the public config.
export const UPLOAD_LIMITS = {
  maxFiles: 10,
  /** 10 MB, counted in MiB: a file of exactly 10 × 1024 × 1024 bytes is admitted, one byte more is not. */
  maxFileBytes: 10 * 1024 * 1024,
  maxFields: 20,
  /** A form field holds at most a 10,000-character description; 64 KiB leaves room for UTF-8. */
  maxFieldBytes: 64 * 1024,
  maxHeaderBytes: 16 * 1024,
  /** JSON bodies of the same endpoints. */
  maxJsonBytes: 64 * 1024,
} as const;
