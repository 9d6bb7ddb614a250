// A database of its own on TEST_DATABASE_URL's PostgreSQL server, for a test file or a server a
// suite starts: made with a random name, dropped with `with (force)` once its users are gone.
import { randomBytes } from 'node:crypto';

export interface ScratchDatabase {
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
}

export function scratchDatabase(server: string, label: string): ScratchDatabase {
  const name = `taskmarket_${label}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const { default: postgres } = await import('postgres');
    const sql = postgres(server, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
  };
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    create: () => admin(`create database ${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
