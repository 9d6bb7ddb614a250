// `npm run soak`: two production instances (tests/faults/support/instances.ts) over PostgreSQL and
// Redis and a local chain, behind a client-side balancer, under traffic shaped like real use
// (visits.ts) at SOAK_LOAD (0.7) of the capacity measured first, for SOAK_MINUTES (30). Prints a
// line a minute; writes the report, its JSON and an SVG chart under SOAK_OUT (.soak/), or the chart
// to SOAK_CHART; exits 1 when a pass rule of issue 26 fails (buckets.ts: verdict).
// SOAK_DATABASE_URL (the server's postgres database) and SOAK_DATABASE_NAME (soak) name the
// database it recreates, SOAK_REDIS_URL (redis://127.0.0.1:6379/5) the Redis it shares. When that
// server runs without autovacuum, the soak does its work (autovacuum.ts); SOAK_AUTOVACUUM=0 leaves
// the dead rows in place, to see what they cost.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startLocalChain } from '../../lib/chain/local-chain';
import { CRON_SECRET, productionEnv, startPair } from '../../tests/support/faults/instances';
import { freePort } from '../../lib/chain/anvil-node';
import { seed, scaledSize } from '../bench/seed';
import { ensureBuild, freshDatabase } from '../bench/server';
import { autovacuumStandIn } from './autovacuum';
import { balancer, type Exchange } from './balancer';
import { bucketsOf, passed, verdict } from './buckets';
import { soakChart } from './chart';
import { minuteLine, soakReport } from './report';
import { resourceWatch, type ResourceSample } from './resources';
import { populate, type Population } from './population';
import { clientsFor, relayBudgetFor, visit, visitDealer, type VisitKind } from './visits';
import { startWebhookReceiver } from './webhook-receiver';

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const load = Number(process.env.SOAK_LOAD ?? 0.7);
const capacitySeconds = Number(process.env.SOAK_CAPACITY_SECONDS ?? 40);
const workers = Number(process.env.SOAK_WORKERS ?? 24);
const adminUrl = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = process.env.SOAK_DATABASE_NAME ?? 'soak';
const redisUrl = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/5';
const out = resolve(process.env.SOAK_OUT ?? '.soak');
const chartPath = resolve(process.env.SOAK_CHART ?? join(out, 'soak.svg'));
// Visits in flight at most: past it the service is not keeping up, and the run says so.
const MAX_IN_FLIGHT = 400;
const SAMPLE_MS = 10_000;
const DRAIN_MS = 180_000;
// The relayer's broadcasts an hour, and the operator's feedback broadcasts an hour, for the whole
// deployment (RELAY_BUDGET_PER_HOUR, ERC8004_FEEDBACK_BUDGET_PER_HOUR; 100 each by default). The
// soak sets them for its load, and refuses to start a run whose measured rate would spend them
// (docs/soak.md#the-relay-budget): a funding answered 429 is a failed visit, and fails the run.
const relayBudget = Number(process.env.SOAK_RELAY_BUDGET_PER_HOUR ?? 20_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Tally {
  made: number;
  failed: number;
  skipped: number;
}

/** Runs visits and keeps count of them, and the first few failures' messages. */
function visitor(people: Population) {
  const tallies = {} as Record<VisitKind, Tally>;
  const failures: string[] = [];
  let inFlight = 0;
  const run = async (kind: VisitKind) => {
    const tally = (tallies[kind] ??= { made: 0, failed: 0, skipped: 0 });
    inFlight += 1;
    try {
      if (await visit(kind, people)) tally.made += 1;
      else tally.skipped += 1;
    } catch (error) {
      tally.failed += 1;
      const e = error as { status?: number; error?: string; details?: string[]; message?: string };
      if (failures.length < 100)
        failures.push(
          `${new Date().toISOString()} ${kind}: ${e.status ?? ''} ` +
            `${e.error ?? e.message ?? String(error)}` +
            `${e.details ? ` ${JSON.stringify(e.details)}` : ''}`,
        );
    } finally {
      inFlight -= 1;
    }
  };
  return { run, tallies, failures, inFlight: () => inFlight };
}

async function main() {
  ensureBuild();
  mkdirSync(out, { recursive: true });
  const databaseUrl = await freshDatabase(adminUrl, databaseName);
  const chain = await startLocalChain({ port: await freePort() });
  const receiver = await startWebhookReceiver();
  const probeDir = mkdtempSync(join(tmpdir(), 'taskmarket-soak-probe-'));
  const kvPrefix = `soak:${Date.now()}:`;
  const env = productionEnv(
    { databaseUrl, redisUrl, chain },
    {
      KV_PREFIX: kvPrefix,
      // The balancer is the proxy in front: each simulated user is counted by its own address.
      TRUST_PROXY: '1',
      WEBHOOK_ALLOW_PRIVATE: '1',
      NODE_OPTIONS: `--import ${resolve('scripts/soak/memory-probe.mjs')}`,
      SOAK_PROBE_DIR: probeDir,
      RELAY_BUDGET_PER_HOUR: String(relayBudget),
      // SOAK_DIST_DIR: a build other than .next (NEXT_DIST_DIR of next.config.ts).
      ...(process.env.SOAK_DIST_DIR && { NEXT_DIST_DIR: process.env.SOAK_DIST_DIR }),
      ERC8004_FEEDBACK_BUDGET_PER_HOUR: String(relayBudget),
    },
  );
  const pair = await startPair(env);
  let watch: ReturnType<typeof resourceWatch> | undefined;
  let autovacuum: Awaited<ReturnType<typeof autovacuumStandIn>> | undefined;
  try {
    // The first database use migrates; the board is then seeded as the benchmarks seed it.
    for (const instance of pair.both) {
      const health = await fetch(`${instance.url}/api/health`);
      if (!health.ok) throw new Error(`${instance.url}/api/health: ${health.status} ${await health.text()}`);
    }
    console.log('seeding 10,000 missions …');
    await seed(databaseUrl, scaledSize(10_000));
    const lb = balancer(pair.both.map((i) => i.url));
    console.log('funding clients, registering agents, subscribing webhooks …');
    const people = await populate(chain, lb, receiver, { clients: 40, agents: 30, returning: 400 });
    if (process.env.SOAK_AUTOVACUUM !== '0') autovacuum = await autovacuumStandIn(databaseUrl);
    watch = resourceWatch({ instancePids: pair.both.map((i) => i.pid), probeDir, databaseUrl, redisUrl, kvPrefix });

    // Capacity: the same mix, closed-loop, as fast as the instances answer; the first 10 s warm up.
    console.log(`measuring capacity: ${workers} users back to back for ${capacitySeconds} s …`);
    const probe = visitor(people);
    const probeVisit = visitDealer();
    let measuring = true;
    const loops = Array.from({ length: workers }, async () => {
      while (measuring) await probe.run(probeVisit());
    });
    await sleep(10_000);
    lb.drain();
    const visitsBefore = Object.values(probe.tallies).reduce((n, t) => n + t.made + t.failed, 0);
    await sleep((capacitySeconds - 10) * 1000);
    const measured = lb.drain();
    const visitsMeasured = Object.values(probe.tallies).reduce((n, t) => n + t.made + t.failed, 0) - visitsBefore;
    measuring = false;
    await Promise.all(loops);
    lb.drain();
    const capacity = measured.length / (capacitySeconds - 10);
    const perVisit = measured.length / Math.max(1, visitsMeasured);
    const visitRate = (load * capacity) / perVisit;
    console.log(
      `capacity ${capacity.toFixed(1)} req/s (${perVisit.toFixed(2)} requests a visit); soak ` +
        `at ${(load * 100).toFixed(0)} %: ${(load * capacity).toFixed(1)} req/s, ` +
        `${visitRate.toFixed(2)} visits/s, for ${minutes} min`,
    );
    // One broadcast a funding: the hour's budget must hold the capacity probe's and the soak's (its first hour).
    const probeFundings = (probe.tallies.lifecycle?.made ?? 0) + (probe.tallies.lifecycle?.failed ?? 0);
    const needed = probeFundings + Math.ceil((relayBudgetFor(visitRate) * Math.min(minutes, 60)) / 60);
    console.log(`relay budget: ${needed} broadcasts needed in the first hour, ${relayBudget} configured`);
    if (needed > relayBudget)
      throw new Error(
        `the soak's load needs ${needed} relayed fundings in its first hour, over RELAY_BUDGET_PER_HOUR ` +
          `(${relayBudget}): set SOAK_RELAY_BUDGET_PER_HOUR, or SOAK_LOAD lower`,
      );
    // At a quiet machine's pace 40 clients reach their hourly posting limit within minutes, and the
    // lifecycle visits would stop there: enough clients for the whole run, funded before it starts.
    const clients = clientsFor(visitRate, minutes);
    if (clients > people.clients.length) {
      console.log(
        `funding ${clients - people.clients.length} more clients, ${clients} in all, for the ` +
          `lifecycle visits of ${minutes} min …`,
      );
      await people.growClients(clients);
    }

    // The soak: visits started on a steady schedule (open loop), whatever the answers' pace.
    const soak = visitor(people);
    const nextVisit = visitDealer();
    const exchanges: Exchange[] = [];
    const samples: ResourceSample[] = [];
    const start = Date.now();
    const end = start + minutes * 60_000;
    let started = 0;
    let late = 0;
    let reported = 0;
    let sweepsStarted = 0;
    const running = new Set<Promise<void>>();
    const sweeper = lb.fetchFor('10.255.255.254');
    // What each sweep did (its answer), kept for the report's JSON: a slow sweep says why.
    const sweeps: { at: number; ms: number; did: unknown }[] = [];
    const sweep = async () => {
      const at = Date.now();
      const answer = await sweeper('http://localhost:3000/api/cron/sweep', {
        method: 'POST',
        headers: { authorization: `Bearer ${CRON_SECRET}` },
      }).catch(() => undefined);
      sweeps.push({
        at,
        ms: Date.now() - at,
        did: answer?.ok ? await answer.json().catch(() => undefined) : answer?.status,
      });
    };
    samples.push(await watch.sample());
    while (Date.now() < end) {
      const now = Date.now();
      const due = Math.floor(((now - start) / 1000) * visitRate);
      for (; started < due; started++) {
        if (soak.inFlight() >= MAX_IN_FLIGHT) {
          late += due - started;
          started = due;
          break;
        }
        const visitDone = soak.run(nextVisit()).finally(() => running.delete(visitDone));
        running.add(visitDone);
      }
      exchanges.push(...lb.drain());
      if (now - (samples.at(-1)?.at ?? 0) >= SAMPLE_MS) samples.push(await watch.sample());
      // Vercel's cron runs the sweep once a minute (vercel.json); so does the soak.
      if (now - start >= sweepsStarted * 60_000 + 30_000) {
        sweepsStarted += 1;
        void sweep();
      }
      const minute = Math.floor((now - start) / 60_000);
      if (minute > reported) {
        reported = minute;
        samples.push(await watch.sample());
        const [bucket] = bucketsOf(exchanges, samples, start + (minute - 1) * 60_000, 1);
        console.log(minuteLine({ ...bucket!, minute }));
        const lastSweep = sweeps.at(-1);
        if (lastSweep && lastSweep.ms > 1000)
          console.log(`  the last sweep took ${lastSweep.ms} ms: ${JSON.stringify(lastSweep.did)}`);
      }
      await sleep(50);
    }
    samples.push(await watch.sample());
    // Drain: the visits under way finish, then the sweep runs until both outboxes are empty.
    await Promise.all(running);
    exchanges.push(...lb.drain());
    const drainEnd = Date.now() + DRAIN_MS;
    let last = await watch.sample();
    while ((last.settlementsPending > 0 || last.webhooksPending > 0) && Date.now() < drainEnd) {
      await sweep();
      await sleep(2_000);
      last = await watch.sample();
    }
    lb.drain();
    const buckets = bucketsOf(exchanges, samples, start, minutes);
    const webhooks = receiver.counts();
    const { checks } = verdict(buckets, {
      settlements: await watch.settlementStatuses(),
      settlementsPending: last.settlementsPending,
      webhooksPending: last.webhooksPending,
      webhookBadSignatures: webhooks.badSignatures,
      visits: { capacity: probe.tallies, soak: soak.tallies },
    });
    const vacuumed = autovacuum?.counts();
    const header = [
      `Soak: ${new Date(start).toISOString()}, ${minutes} min, two instances (PostgreSQL + ` +
        `Redis, anvil), Node ${process.version}.`,
      `Capacity measured first: ${capacity.toFixed(1)} req/s (${workers} users back to back, ` +
        `${capacitySeconds - 10} s); soaked at ${(load * 100).toFixed(0)} %: ` +
        `${visitRate.toFixed(2)} visits/s ≈ ${(load * capacity).toFixed(1)} req/s.`,
      autovacuum?.serverRuns
        ? 'PostgreSQL ran its own autovacuum.'
        : vacuumed
          ? `PostgreSQL runs here with autovacuum off (a CI setting); the soak did its work with ` +
            `its default thresholds and throttling (autovacuum.ts): ${vacuumed.vacuums} vacuums, ` +
            `${vacuumed.analyzes} analyzes.`
          : '**PostgreSQL ran without autovacuum and nothing stood in for it (SOAK_AUTOVACUUM=0): dead rows stayed.**',
      ...(late
        ? [`**${late} visits were not started: ${MAX_IN_FLIGHT} were already in flight (the service fell behind).**`]
        : []),
    ];
    const report = soakReport({
      buckets,
      checks,
      header,
      visits: soak.tallies,
      failures: [...probe.failures.map((f) => `(capacity) ${f}`), ...soak.failures],
      webhooks,
    });
    writeFileSync(join(out, 'report.md'), report);
    writeFileSync(
      join(out, 'report.json'),
      JSON.stringify(
        {
          start,
          minutes,
          capacity,
          load,
          visitRate,
          late,
          buckets,
          samples,
          checks,
          visits: soak.tallies,
          webhooks,
          sweeps,
        },
        null,
        1,
      ),
    );
    mkdirSync(dirname(chartPath), { recursive: true });
    writeFileSync(
      chartPath,
      soakChart(
        buckets,
        `Soak: ${minutes} min at ${(load * 100).toFixed(0)} % of ${capacity.toFixed(0)} req/s, two instances`,
      ),
    );
    console.log(`\n${report}`);
    console.log(`report: ${join(out, 'report.md')}, chart: ${chartPath}`);
    const pass = passed(checks);
    console.log(pass ? 'SOAK PASS' : 'SOAK FAIL');
    process.exitCode = pass ? 0 : 1;
  } finally {
    await autovacuum?.stop();
    await watch?.close();
    await pair.stop();
    await receiver.close();
    await chain.stop();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
