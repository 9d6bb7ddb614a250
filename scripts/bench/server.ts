// Starts production instances of taskmarket for benchmarks and fault tests: a build if there is
// none, PostgreSQL database of its own, a Redis key prefix of its own, and a local chain.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TICKS_PER_SECOND, procStat } from './proc-stat';

export function ensureBuild(): void {
  if (existsSync(join('.next', 'BUILD_ID'))) return;
  const built = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (built.status !== 0) throw new Error('npm run build failed');
}

/** Creates (or empties) a PostgreSQL database for one benchmark run. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists ${name} with (force)`);
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface Instance {
  url: string;
  /** CPU time the instance's process has used so far (user + system, all threads), in µs. */
  cpuMicros(): number;
  stop(): Promise<void>;
}

const cpuMicrosOf = (pid: number): number => ((procStat(pid)?.ownTicks ?? NaN) * 1e6) / TICKS_PER_SECOND;

/** An instance of the build named by env.NEXT_DIST_DIR, from the checkout in `cwd` (this one by default). */
export async function startInstance(
  port: number,
  env: Record<string, string>,
  { cwd, profileDir = process.env.BENCH_PROFILE, cpus }: { cwd?: string; profileDir?: string; cpus?: string } = {},
): Promise<Instance> {
  // Resolved here: an instance started in another checkout (bench:builds) would write it there.
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [];
  const command = [process.execPath, ...profile, '--import', 'tsx', 'server.ts'];
  // `cpus` (taskset's list, e.g. `1`) keeps the instance on those CPUs; taskset execs, so the pid is the instance's.
  const [file, ...args] = cpus ? ['taskset', '-c', cpus, ...command] : command;
  const child: ChildProcess = spawn(file!, args, {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      JWT_SECRET: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      // One instance measured; a scenario that sets REDIS_URL shares its KV anyway.
      SINGLE_INSTANCE: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited with ${child.exitCode}`);
    const live = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (live) break;
    if (Date.now() > deadline) throw new Error(`instance on ${port} did not become healthy`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    cpuMicros: () => cpuMicrosOf(child.pid!),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
