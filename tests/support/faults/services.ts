// Real Redis and PostgreSQL servers owned by one fault test, on free ports, which the test stops
// and starts at will — the machine's shared services (and every other test run using them) are
// never touched. Also: fresh databases on the machine's PostgreSQL for tests that
// do not stop it.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@/lib/chain/anvil-node';

const run = promisify(execFile);

/** Polls `probe` every 100 ms until it answers true; throws after `timeoutMs`. */
export async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One round trip of the Redis protocol: true when a server on `port` answers PING. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export interface RedisServer {
  url: string;
  /** Kills the server outright (SIGKILL): no goodbye to its clients, nothing kept. */
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'taskmarket-faults-redis-'));
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);

  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    await until(`redis on port ${port}`, () => redisAnswers(port));
  };
  const kill = async () => {
    const exiting =
      child && child.exitCode === null ? new Promise((resolve) => child!.once('exit', resolve)) : undefined;
    child?.kill('SIGKILL');
    await exiting;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    async close() {
      await kill();
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// initdb and the server refuse to run as root: as root, run them as the postgres user.
const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

export interface PostgresServer {
  /** `postgres://` URL of database `name` on this server. */
  url(name: string): string;
  createDatabase(name: string): Promise<void>;
  /** Stops the server in immediate mode: connections cut, no checkpoint — a crash, recovered from WAL at start. */
  crash(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** `settings`: server settings beyond the defaults (`-c name=value`), e.g. shared_preload_libraries. */
export async function startPostgres(settings: Record<string, string> = {}): Promise<PostgresServer> {
  const bin = (await run('pg_config', ['--bindir'])).stdout.trim();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'taskmarket-faults-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number((await run('id', ['-u', 'postgres'])).stdout),
      Number((await run('id', ['-g', 'postgres'])).stdout),
    );
  await asPostgres(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const pgCtl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-w', ...args]);
  const extra = Object.entries(settings)
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join('');
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir}${extra}`;
  const start = async () => {
    await pgCtl('-l', join(dir, 'log'), '-o', options, 'start');
  };
  const stopQuietly = () => pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
  // A server must not outlive the test process that started it; at exit only synchronous calls run.
  const stopOnExit = () => {
    const args = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'];
    try {
      if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' });
      else execFileSync(args[0]!, args.slice(1), { stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
  };
  process.on('exit', stopOnExit);
  await start();
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    url,
    async createDatabase(name) {
      await createDatabaseAt(url('postgres'), name);
    },
    async crash() {
      await pgCtl('-m', 'immediate', 'stop');
    },
    start,
    async close() {
      await stopQuietly();
      process.off('exit', stopOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createDatabaseAt(adminUrl: string, name: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end();
  }
}

const MACHINE_POSTGRES = 'postgres://postgres@127.0.0.1:5432';

/** A new, empty database on the machine's PostgreSQL; `drop` removes it (and cuts its connections). */
export async function freshMachineDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `faults_${randomBytes(6).toString('hex')}`;
  await createDatabaseAt(`${MACHINE_POSTGRES}/postgres`, name);
  return {
    url: `${MACHINE_POSTGRES}/${name}`,
    async drop() {
      const { default: postgres } = await import('postgres');
      const sql = postgres(`${MACHINE_POSTGRES}/postgres`, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await sql.end();
      }
    },
  };
}
