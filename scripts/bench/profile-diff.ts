// What one kind of request does that another does not, from V8 profiles of a bench run: a profile
// is cut into 100 ms slices, and each function's self time in the slices of kind A is set against
// that in the slices of kind B, per request (REQ_A and REQ_B: the requests each side answered in
// all, from the bench's log; without them, per profile). A slice is A's when a function matching
// A's pattern is on one of its stacks. In one profile holding both kinds (npm run bench alternates
// them), B's slices are those with B's frames and none of A's; with two profiles (the same
// requests on an instance with tracing off and one with it on), each side's slices are its own.
// REQ_A=20580 REQ_B=27360 npx tsx scripts/bench/profile-diff.ts /tmp/prof 'serveMcp|handlePostRequest' '^listMissions '
//   npx tsx scripts/bench/profile-diff.ts /tmp/traced verifySignIn /tmp/untraced verifySignIn
import { loadProfile, nameOf } from './cpu-profile';

const args = process.argv.slice(2);
if (args.length !== 3 && args.length !== 4)
  throw new Error('usage: profile-diff.ts DIR PATTERN_A PATTERN_B, or DIR_A PATTERN_A DIR_B PATTERN_B');
const SLICE_US = 100_000;

/** Self time by function (µs) in the slices with `kind`'s frames on a stack and none of `unlike`'s. */
function sliceTimes(dir: string, kind: RegExp, unlike?: RegExp) {
  const { file, profile, byId, parentOf } = loadProfile(dir);
  const onStack = (pattern: RegExp) => {
    const memo = new Map<number, boolean>();
    const test = (id: number): boolean => {
      let known = memo.get(id);
      if (known === undefined) {
        const parent = parentOf.get(id);
        known = pattern.test(nameOf(byId.get(id)!)) || (parent !== undefined && test(parent));
        memo.set(id, known);
      }
      return known;
    };
    return test;
  };
  const isKind = onStack(kind);
  const isUnlike = unlike ? onStack(unlike) : () => false;
  let at = profile.startTime;
  const sliceOf = profile.timeDeltas.map((delta) => Math.floor(((at += delta) - profile.startTime) / SLICE_US));
  const chosen = new Set<number>();
  const excluded = new Set<number>();
  profile.samples.forEach((id, i) => {
    if (isKind(id)) chosen.add(sliceOf[i]!);
    if (isUnlike(id)) excluded.add(sliceOf[i]!);
  });
  for (const slice of excluded) chosen.delete(slice);
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (!chosen.has(sliceOf[i]!) || byId.get(id)!.callFrame.functionName === '(idle)') return;
    const name = nameOf(byId.get(id)!);
    self.set(name, (self.get(name) ?? 0) + profile.timeDeltas[i]!);
  });
  return { self, seconds: chosen.size / 10, file };
}

const [first, second, third, fourth] = args as [string, string, string, string | undefined];
const sides =
  fourth === undefined
    ? {
        A: sliceTimes(first, new RegExp(second)),
        B: sliceTimes(first, new RegExp(third), new RegExp(second)),
        patterns: [second, third],
      }
    : {
        A: sliceTimes(first, new RegExp(second)),
        B: sliceTimes(third, new RegExp(fourth)),
        patterns: [second, fourth],
      };
const requests = { A: Number(process.env.REQ_A ?? 1), B: Number(process.env.REQ_B ?? 1) };
const unit = process.env.REQ_A ? 'µs a request' : 'ms in all';
const scale = process.env.REQ_A ? 1 : 1 / 1000;
const per = (m: Map<string, number>, n: number) => new Map([...m].map(([k, v]) => [k, (v / n) * scale]));
const a = per(sides.A.self, requests.A);
const b = per(sides.B.self, requests.B);
const sum = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
console.log(
  `A (${sides.patterns[0]}, ${sides.A.file}): ${sides.A.seconds.toFixed(1)} s of slices, ` +
    `${sum(a).toFixed(0)} ${unit} busy`,
);
console.log(
  `B (${sides.patterns[1]}, ${sides.B.file}): ${sides.B.seconds.toFixed(1)} s of slices, ` +
    `${sum(b).toFixed(0)} ${unit} busy`,
);
const rows = [...new Set([...a.keys(), ...b.keys()])]
  .map((name) => ({ name, a: a.get(name) ?? 0, b: b.get(name) ?? 0 }))
  .sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b));
console.log(`\nA − B (A, B), ${unit}, largest differences first`);
for (const row of rows.slice(0, Number(process.env.TOP ?? 50))) {
  console.log(
    `${(row.a - row.b).toFixed(1).padStart(8)}  (${row.a.toFixed(1).padStart(7)}, ` +
      `${row.b.toFixed(1).padStart(7)})  ${row.name}`,
  );
}
