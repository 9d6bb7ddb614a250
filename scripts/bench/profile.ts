// Where a benchmarked instance spends its CPU: reads the V8 profile that `BENCH_PROFILE=dir npm run
// bench` leaves (the largest .cpuprofile in dir) and prints self time by package and by function,
// over the last SECONDS of the profile (the last scenario measured; the whole profile without it),
// and total time by function (its own and its callees', once per sample however deep it recurs):
// self time says which leaves are dear, total time which of our steps they were taken for.
//   BENCH_PROFILE=/tmp/prof BENCH_ONLY='auth/me' npm run bench && npx tsx scripts/bench/profile.ts /tmp/prof 8
import { loadProfile, nameOf } from './cpu-profile';

const dir = process.argv[2] ?? process.env.BENCH_PROFILE;
if (!dir) throw new Error('usage: profile.ts DIR');
const lastSeconds = process.argv[3] ? Number(process.argv[3]) : undefined;
const top = Number(process.argv[4] ?? 40);
const { file, profile, byId, parentOf } = loadProfile(dir);
const self = new Map<number, number>();
// The instance stops right after the last scenario: its last half second is shutdown, not load.
const windowEnd = profile.endTime - 500_000;
const windowStart = lastSeconds === undefined ? 0 : windowEnd - lastSeconds * 1_000_000;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= windowStart && at <= windowEnd) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

const packageOf = (url: string): string => {
  if (!url) return '(native/idle/gc)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  if (url.includes('/.next/')) return url.includes('/chunks/') ? '.next chunks (our code + bundled deps)' : '.next';
  return url;
};

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
const packages = new Map<string, number>();
const functions = new Map<string, number>();
const totals = new Map<string, number>();
let total = 0;
for (const [id, micros] of self) {
  const node = byId.get(id)!;
  total += micros;
  add(packages, packageOf(node.callFrame.url), micros);
  add(functions, nameOf(node), micros);
  const onStack = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) onStack.add(nameOf(byId.get(at)!));
  for (const name of onStack) add(totals, name, micros);
}

const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print('self time by package', packages);
print('self time by function', functions);
print('total time by function (itself and what it called)', totals);
