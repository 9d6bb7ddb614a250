// A V8 CPU profile as `--cpu-prof` writes it (BENCH_PROFILE), for profile.ts and profile-diff.ts:
// the largest one in a folder, its nodes' parents, and a name for each function that says where
// it lives.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface Profile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The largest .cpuprofile in `dir` (the instance measured; a short-lived helper's is smaller), read. */
export function loadProfile(dir: string): {
  file: string;
  profile: Profile;
  byId: Map<number, ProfileNode>;
  parentOf: Map<number, number>;
} {
  const file = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  return { file, profile, byId, parentOf };
}

// The scripts run from the repository's root (npm run, npx tsx): its URL is the prefix to cut.
const ROOT = `${pathToFileURL(process.cwd()).href}/`;

/** `name path:line`, the path from its package (node_modules) or the repository. */
export const nameOf = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode): string =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(ROOT, '')}:${lineNumber + 1}`;
