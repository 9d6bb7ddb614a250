// `npm run dev` runs this first, in plain JavaScript, so a Node older than package.json's
// `engines` stops with one line naming the version needed instead of a stack from deep inside
// tsx or Next.js (README, "Run it").
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The lowest version `engines.node` admits, from its `>=MAJOR.MINOR[.PATCH]` form. */
export function lowestAdmitted(range) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=MAJOR.MINOR", not "${range}"`);
  return match.slice(1).map((part) => Number(part ?? 0));
}

/** A sentence saying what to install when `version` (as process.versions.node) is older than `range`, else null. */
export function nodeVersionProblem(version, range) {
  const wanted = lowestAdmitted(range);
  const have = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > wanted[i]) return null;
    if ((have[i] ?? 0) < wanted[i]) {
      return `taskmarket needs Node.js ${wanted.join('.')} or later (24 LTS recommended); this is Node.js ${version}.`;
    }
  }
  return null;
}

// Run as a script (not imported by its test).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const problem = nodeVersionProblem(process.versions.node, engines.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
