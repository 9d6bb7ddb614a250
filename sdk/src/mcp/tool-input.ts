// The arguments only the MCP tools understand, checked here: strings, inline text files, and local
// file paths — read only under TASKMARKET_FILE_ROOT. A mission's description is written by a
// stranger and read by the model; "attach ~/.aws/credentials" must not be something it can do.
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Session } from '../session/session.js';
import { isTextType, typeByExtension } from '../file-types.js';

type Args = Record<string, unknown>;

/** A tool argument the tool itself must understand (the API never sees it raw). */
export class ToolInputError extends Error {}

export function text(args: Args, key: string, required = true): string | undefined {
  const value = args[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`${key} must be a string`);
  return value;
}

function paths(args: Args, key: string): string[] {
  const value = args[key] ?? [];
  if (!Array.isArray(value) || !value.every((p) => typeof p === 'string'))
    throw new ToolInputError(`${key} must be an array of file paths`);
  return value;
}

/**
 * Inline text files as the SDK's `{ name, data, type }`, typed by extension (the server admits text only when
 * declared).
 */
export function inlineFiles(args: Args): { name: string; data: Uint8Array; type: string }[] {
  const value = args.textFiles ?? [];
  if (!Array.isArray(value)) throw new ToolInputError('textFiles must be an array of { name, content }');
  return value.map((file: unknown) => {
    const { name, content } = (file ?? {}) as { name?: unknown; content?: unknown };
    if (typeof name !== 'string' || typeof content !== 'string')
      throw new ToolInputError('each of textFiles needs a name and a content, both strings');
    const type = typeByExtension(name);
    return { name, data: new TextEncoder().encode(content), type: isTextType(type) ? type! : 'text/plain' };
  });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Files sent as content (`attachments`: name, mimeType, base64 data), as the SDK's `{ name, data, type }`. */
export function attachedFiles(args: Args): { name: string; data: Uint8Array; type: string }[] {
  const value = args.attachments ?? [];
  if (!Array.isArray(value)) throw new ToolInputError('attachments must be an array of { name, mimeType, data }');
  return value.map((file: unknown) => {
    const { name, mimeType, data } = (file ?? {}) as { name?: unknown; mimeType?: unknown; data?: unknown };
    if (typeof name !== 'string' || typeof data !== 'string')
      throw new ToolInputError('each of attachments needs a name and its data (base64), both strings');
    if (mimeType !== undefined && typeof mimeType !== 'string')
      throw new ToolInputError(`${name}: mimeType must be a string`);
    const compact = data.replace(/\s+/g, '');
    if (!BASE64.test(compact)) throw new ToolInputError(`${name}: data must be base64`);
    return {
      name,
      data: new Uint8Array(Buffer.from(compact, 'base64')),
      type: mimeType ?? typeByExtension(name) ?? 'application/octet-stream',
    };
  });
}

/** Everything but the named keys, and only keys that were given (the API applies its defaults). */
/**
 * docs/api.md#criteria: a list argument (selfCheck, unmet) as `{ [key]: list }`, `{}` when left out; the
 * API checks its items.
 */
export function listOf(args: Args, key: string): Record<string, never[]> {
  const value = args[key];
  if (value === undefined) return {};
  if (!Array.isArray(value)) throw new ToolInputError(`${key} must be an array`);
  return { [key]: value as never[] };
}

export function bodyOf(args: Args, omit: string[]): Args {
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => !omit.includes(key) && value !== undefined));
}

/**
 * `key`'s paths, each resolved (symlinks followed) and required to lie under the file root;
 * relative paths are taken from the root. Without a root, paths are refused.
 */
export async function filesUnderRoot(session: Session, args: Args, key: string): Promise<string[]> {
  const wanted = paths(args, key);
  if (wanted.length === 0) return [];
  if (session.remote) {
    throw new ToolInputError(
      `${key}: this taskmarket server is remote and cannot read paths on your machine — send ` +
        `the files as attachments (name, mimeType, base64 data) or, for text, as textFiles`,
    );
  }
  const root = session.settings().fileRoot;
  if (!root) {
    throw new ToolInputError(
      `${key}: reading local files is off — set TASKMARKET_FILE_ROOT to the directory the ` +
        `tools may upload from, or send text inline (textFiles)`,
    );
  }
  const base = await realpath(root).catch(() => {
    throw new ToolInputError(`TASKMARKET_FILE_ROOT (${root}) is not a directory that exists`);
  });
  return Promise.all(
    wanted.map(async (path) => {
      const full = await realpath(resolve(base, path)).catch(() => {
        throw new ToolInputError(`${path}: no such file under TASKMARKET_FILE_ROOT (${base})`);
      });
      const inside = relative(base, full);
      if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
        throw new ToolInputError(
          `${path} is outside TASKMARKET_FILE_ROOT (${base}); the tools upload files from there only`,
        );
      }
      return full;
    }),
  );
}
