// `npm run bench:builds`: the app at two git refs measured side by side in one run, for a change
// that must not make any endpoint more than 5 % slower (issue 25). BENCH_OLD=<ref> (required) is
// the old side; the new one is BENCH_NEW=<ref>, or by default the working tree (HEAD plus
// uncommitted changes). A ref is checked out in a worktree removed after the run; each side gets a
// plain `next build` of its own (scripts/bench/checkouts.ts; the working tree's is reused with
// BENCH_REUSE_BUILD=1). Both instances run at once with the
// settings of `npm run bench` on one local chain, one Redis (a key prefix each) and one seeded
// database (BENCH_REUSE=1 and BENCH_DATABASE_NAME as there). The new build starts first and migrates
// it; the old one then runs on that schema, as drizzle applies no migration older than the newest
// applied, and the report names the migrations the old build does not know.
// The main endpoints of `npm run bench` are measured alternately on the two (compare.ts) in
// BENCH_ROUNDS (default 3) rounds of BENCH_SECONDS (10) at BENCH_CONNECTIONS (20); BENCH_ONLY=text
// keeps those whose name contains it (several texts, comma-separated: any of them; `=name` is that name
// alone). Per endpoint: new/old req/s, each instance's CPU per request, and a verdict on new/old ≥ 0.95
// in every round decided by CPU per request (requests per CPU second, new/old), which moves less than
// req/s on a machine shared with other work.
// BENCH_PORT (default 3920, the old side on the next port) and BENCH_CHAIN_PORT (18720). BENCH_PROFILE=dir builds
// both sides unminified and writes their CPU profiles to dir/new and dir/old (scripts/bench/profile-diff.ts).
// BENCH_SERVER_CPUS (taskset's list; default the last CPU, empty: unpinned) is where both instances run.
import { cpus } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startLocalChain } from '../../lib/chain/local-chain';
import { atRef, type Checkout, treeOf, workingTree } from './checkouts';
import { compare, type Compared, comparisonTable, ratioCell, verdict } from './compare';
import { benchDatabase, instanceEnv, seededCallers } from './instance-env';
import { type Endpoint, endpointScenarios } from './scenarios';
import { type Instance, startInstance } from './server';
import { signInAgent } from './sign-ins';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3920);
// One SIWE domain for both instances, as every other setting.
const DOMAIN = `localhost:${PORT}`;
// Single-use verify bodies a measurement: enough for 2,000 req/s (measure.ts refuses a round that runs out).
const VERIFIES = Number(process.env.BENCH_VERIFIES ?? seconds * 2000);
// Both instances on one CPU, measured in turns. Unpinned, each settles on a vCPU of its own, and on this
// 2-vCPU guest one vCPU can run slower than the other for a whole run (a busy sibling on the host): an A/A
// run of one tree gave 1.13–1.24× on every endpoint (docs/performance.md#pinned).
const SERVER_CPUS = process.env.BENCH_SERVER_CPUS ?? (cpus().length > 1 ? String(cpus().length - 1) : '');
// Issue 25: no endpoint more than 5 % slower.
const BOUND = 0.95;
const ENDPOINTS: Endpoint[] = [
  'nonce',
  'verify',
  'me',
  'meOAuth',
  'mePersonal',
  'missions',
  'search',
  'mine',
  'mineOAuth',
  'mcpOAuth',
  'detail',
  'health',
  'publicStats',
];

async function main() {
  const oldRef = process.env.BENCH_OLD;
  if (!oldRef)
    throw new Error(
      'BENCH_OLD=<git ref> names the old side (BENCH_NEW=<git ref> the new one, by default the working tree)',
    );
  const newRef = process.env.BENCH_NEW;
  if (newRef && treeOf(newRef) === treeOf(oldRef))
    throw new Error(
      'BENCH_OLD and BENCH_NEW are the same tree (for the noise alone, leave BENCH_NEW out on ' +
        'a clean checkout of BENCH_OLD)',
    );
  // Undone last first, whatever failed.
  const cleanup: (() => unknown)[] = [];
  try {
    const oldSide = atRef(oldRef);
    cleanup.push(() => oldSide.remove());
    const newSide = newRef ? atRef(newRef) : workingTree();
    cleanup.push(() => newSide.remove());
    const note = schemaNote(newSide, oldSide);
    // Every build first, so none runs while anything is measured.
    newSide.build();
    oldSide.build();

    const chain = await startLocalChain({ port: Number(process.env.BENCH_CHAIN_PORT ?? 18720) });
    cleanup.push(() => chain.stop());
    const database = await benchDatabase();
    const env = instanceEnv(chain, database.databaseUrl, DOMAIN);
    const start = async (side: Checkout, port: number, name: string) => {
      // A key prefix each: the two builds need not agree on what they keep in the KV.
      const instance = await startInstance(
        port,
        { ...env, ...side.env, KV_PREFIX: `bench-builds:${name}:${Date.now()}:` },
        // Each side's CPU profile in a folder of its own, for profile-diff.ts's two-folder form.
        {
          cwd: side.cwd,
          profileDir: process.env.BENCH_PROFILE && join(process.env.BENCH_PROFILE, name),
          cpus: SERVER_CPUS,
        },
      );
      cleanup.push(() => instance.stop());
      return instance;
    };
    // The new build first: it migrates a fresh database, and seeding needs the schema.
    const newInstance = await start(newSide, PORT, 'new');
    const { clientWallet } = await database.seeded();
    const oldInstance = await start(oldSide, PORT + 1, 'old');

    const seeded = await seededCallers(database.databaseUrl, env.JWT_SECRET, clientWallet);
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const scenariosOn = async (instance: Instance) =>
      endpointScenarios({
        base: instance.url,
        domain: DOMAIN,
        verifiesPerRound: VERIFIES,
        address,
        agentToken: (await signInAgent(instance.url, DOMAIN)).token,
        ...seeded,
      });
    const [onNew, onOld] = [await scenariosOn(newInstance), await scenariosOn(oldInstance)];
    const only = process.env.BENCH_ONLY;
    const comparisons = ENDPOINTS.map((endpoint) => ({
      name: onNew[endpoint].name,
      a: { base: newInstance.url, cpuMicros: newInstance.cpuMicros, scenario: () => onNew[endpoint] },
      b: { base: oldInstance.url, cpuMicros: oldInstance.cpuMicros, scenario: () => onOld[endpoint] },
    })).filter((comparison) => !only || only.split(',').some((text) => named(comparison.name, text)));
    if (comparisons.length === 0) throw new Error(`BENCH_ONLY=${only}: no endpoint's name contains it`);

    const results = await compare(comparisons, rounds, seconds, connections).catch((error: Error) => {
      throw note ? new Error(`${error.message}\n${note}`) : error;
    });
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, new (a): ${newSide.label}, old (b): ` +
        `${oldSide.label}; ${rounds === 1 ? 'one round' : `${rounds} alternating rounds`} of ` +
        `${seconds}s, ${connections} connections, Node ${process.version}`,
    );
    if (note) console.log(`\n${note}`);
    console.log(
      `\nVerdict: new/old ≥ ${BOUND} in every round, decided by the instance's CPU per ` +
        `request (requests per CPU second, new/old), which moves less than req/s on a shared ` +
        `machine; req/s new/old shown too.\n`,
    );
    console.log(comparisonTable(results, ['new req/s', 'old req/s', 'new/old']));
    console.log(`\n${results.map(verdictLine).join('\n')}`);
  } finally {
    for (const step of cleanup.reverse()) await step();
  }
}

/** The migrations the old build does not know, said; fails when it knows some the new one does not. */
function schemaNote(newSide: Checkout, oldSide: Checkout): string | undefined {
  const unknownToNew = oldSide.migrations.filter((name) => !newSide.migrations.includes(name));
  if (unknownToNew.length > 0)
    throw new Error(
      `${oldSide.label} has migrations ${newSide.label} lacks (${unknownToNew.join(', ')}): ` +
        `one database cannot hold both schemas`,
    );
  const unknownToOld = newSide.migrations.filter((name) => !oldSide.migrations.includes(name));
  if (unknownToOld.length === 0) return undefined;
  return (
    `The old build runs on a schema newer than it knows (${unknownToOld.join(', ')}, ` +
    `applied by the new build): answers from it that are not 2xx mean its code does not work ` +
    `on that schema.`
  );
}

// `=name` keeps only the endpoint of that name: `GET /api/auth/me` is part of the delegated tokens' names too.
const named = (name: string, text: string) => (text.startsWith('=') ? name === text.slice(1) : name.includes(text));

function verdictLine(result: Compared): string {
  // Old CPU per request over new: requests per CPU second, new/old, like the req/s ratio.
  const cpu = result.bCpu.map((old, round) => old / result.aCpu[round]!);
  return (
    `- ${result.name}: new/old ≥ ${BOUND} in every round: ${verdict(cpu, BOUND)} (requests ` +
    `per CPU second ${ratioCell(cpu)}; req/s ${ratioCell(result.ratios)}, ` +
    `${verdict(result.ratios, BOUND)})`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
