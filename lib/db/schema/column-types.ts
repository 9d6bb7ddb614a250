// Column types Drizzle does not ship: raw bytes (file contents) and full-text search vectors.
import { customType } from 'drizzle-orm/pg-core';

/**
 * `bytea`: postgres.js answers a Buffer, PGlite a Uint8Array; both become a Buffer here. Large
 * values are better moved as base64 text (see lib/missions/files.ts): PGlite's own bytea codec is slow.
 */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** `tsvector`, only ever written by a generated column and read by `@@`. */
export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});
