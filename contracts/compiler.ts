// Compiles contracts/*.sol (the test-only contracts/test/*.sol, and the ERC-8004 reference registries
// vendored unchanged in contracts/erc8004/) with the solc npm package and renders the committed
// artifacts. Writes nothing of the project's (compile.ts writes); solc's answers are kept in
// node_modules/.cache, keyed by everything they depend on.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CompiledContract {
  abi: unknown[];
  bytecode: `0x${string}`;
  /** Source file relative to the repository root, e.g. `contracts/Passport.sol`. */
  source: string;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

interface Solc {
  compile(input: string, callbacks: { import: (path: string) => { contents: string } | { error: string } }): string;
  version(): string;
}

// solc ships no type declarations; require it through a typed seam instead of an ambient module.
const require = createRequire(import.meta.url);
const solc = require('solc') as Solc;

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIR = 'contracts/test/';
/** Third-party sources, kept as published (contracts/erc8004/README.md). */
const VENDORED_DIR = 'contracts/erc8004/';

/** The contracts the app deploys, and their export names in lib/chain/artifacts.ts (`…Abi` in abis.ts). */
export const APP_ARTIFACTS: Record<string, string> = {
  Passport: 'passportArtifact',
  TaskEscrow: 'taskEscrowArtifact',
  TaskEscrowV3: 'taskEscrowV3Artifact',
  TaskEscrowV4: 'taskEscrowV4Artifact',
  TaskEscrowV5: 'taskEscrowV5Artifact',
  MockUSDC: 'mockUsdcArtifact',
  // ERC-8004 (contracts/erc8004/README.md): the reference registries, each behind an ERC1967Proxy that starts
  // on HardhatMinimalUUPS and is upgraded to the registry, as the reference deploys them.
  ERC1967Proxy: 'erc1967ProxyArtifact',
  HardhatMinimalUUPS: 'minimalUupsArtifact',
  IdentityRegistryUpgradeable: 'identityRegistryArtifact',
  ReputationRegistryUpgradeable: 'reputationRegistryArtifact',
};

/**
 * Two compilations with their own settings: ours, and the vendored ERC-8004 registries with the
 * settings their repository builds them with (via-IR, which they need: "stack too deep" without
 * it), so neither changes the other's bytecode.
 */
const BUILDS: { dirs: string[]; settings: Record<string, unknown> }[] = [
  {
    dirs: ['contracts', 'contracts/test'],
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
  },
  {
    dirs: ['contracts/erc8004'],
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', viaIR: true },
  },
];

function readSources(dirs: string[]): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const dir of dirs) {
    for (const file of readdirSync(join(REPO_ROOT, dir))
      .filter((f) => f.endsWith('.sol'))
      .sort()) {
      sources[`${dir}/${file}`] = { content: readFileSync(join(REPO_ROOT, dir, file), 'utf8') };
    }
  }
  return sources;
}

function findImport(path: string): { contents: string } | { error: string } {
  try {
    // Our own files are keyed from the repository root; everything else is a package (@openzeppelin/…).
    const file = path.startsWith('contracts/') ? join(REPO_ROOT, path) : require.resolve(path);
    if (path.startsWith('contracts/') && relative(REPO_ROOT, file).split(sep)[0] === '..')
      throw new Error('outside repo');
    return { contents: readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `cannot import ${path}: ${(error as Error).message}` };
  }
}

const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'taskmarket-solc');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const importHash = (found: ReturnType<typeof findImport>) => sha256('contents' in found ? found.contents : found.error);

/**
 * solc's answer to `input`, from the cache when the compiler, the input and every file it imported
 * are unchanged. The via-IR build of the ERC-8004 registries takes 40 s or more of one core, and
 * npm test compiles twice (the artifacts test, and `npm run contracts:compile` as a script).
 */
function compileCached(input: string): string {
  const file = join(CACHE_DIR, `${sha256(`${solc.version()}\n${input}`)}.json`);
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { imports: Record<string, string>; output: string };
    if (Object.entries(entry.imports).every(([path, hash]) => importHash(findImport(path)) === hash))
      return entry.output;
  } catch {
    // No entry yet, or an unreadable one: compile.
  }
  const imports: Record<string, string> = {};
  const output = solc.compile(input, {
    import: (path) => {
      const found = findImport(path);
      imports[path] = importHash(found);
      return found;
    },
  });
  // Written whole and renamed, so a concurrent reader sees the old entry or the new one.
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify({ imports, output }));
  renameSync(`${file}.${process.pid}.tmp`, file);
  return output;
}

function compileBuild(
  build: (typeof BUILDS)[number],
  onWarning: (message: string) => void,
  compiled: Record<string, CompiledContract>,
): void {
  const sources = readSources(build.dirs);
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...build.settings,
      outputSelection: Object.fromEntries(
        Object.keys(sources).map((key) => [key, { '*': ['abi', 'evm.bytecode.object'] }]),
      ),
    },
  };
  const output = JSON.parse(compileCached(JSON.stringify(input))) as SolcOutput;
  const problems = output.errors ?? [];
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  for (const warning of problems.filter((p) => p.severity === 'warning')) onWarning(warning.formattedMessage);
  for (const source of Object.keys(sources)) {
    for (const [name, contract] of Object.entries(output.contracts?.[source] ?? {})) {
      // Interfaces and abstract contracts have no bytecode and nothing to deploy.
      if (contract.evm.bytecode.object === '') continue;
      if (compiled[name]) throw new Error(`two contracts named ${name} (${compiled[name].source}, ${source})`);
      compiled[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}`, source };
    }
  }
}

/** Compiles every source; throws on any compiler error. Warnings go to `onWarning`. */
export function compileContracts(
  onWarning: (message: string) => void = (message) => console.warn(message),
): Record<string, CompiledContract> {
  const compiled: Record<string, CompiledContract> = {};
  for (const build of BUILDS) compileBuild(build, onWarning, compiled);
  for (const name of Object.keys(APP_ARTIFACTS)) {
    if (!compiled[name]) throw new Error(`contract ${name} not found in contracts/`);
  }
  return compiled;
}

function renderJson(contract: CompiledContract): string {
  return `${JSON.stringify({ abi: contract.abi, bytecode: contract.bytecode }, null, 2)}\n`;
}

/** `passportArtifact` → `passportAbi`: the ABI's export name in lib/chain/abis.ts. */
const abiName = (artifactName: string) => artifactName.replace(/Artifact$/, 'Abi');

const GENERATED =
  '// GENERATED by `npm run contracts:compile` (contracts/compile.ts) from contracts/*.sol. Do not edit.';

/**
 * The ABIs alone, typed `as const`: what a browser bundle imports (lib/web/), without the bytecode
 * that only deploying needs. lib/chain/artifacts.ts takes its ABIs from here, so each is stated once.
 */
function renderAbisModule(compiled: Record<string, CompiledContract>): string {
  const blocks = Object.entries(APP_ARTIFACTS).map(([name, exportName]) => {
    const abi = JSON.stringify(compiled[name]!.abi, null, 2);
    return `export const ${abiName(exportName)} = ${abi} as const;\n`;
  });
  return [
    GENERATED,
    '// The ABIs alone, typed `as const` so viem infers function, event and error types; no bytecode, so a',
    '// browser bundle that calls a contract carries only this (artifacts.ts adds the bytecode to deploy).',
    '',
    blocks.join('\n'),
  ].join('\n');
}

function renderArtifactsModule(compiled: Record<string, CompiledContract>): string {
  const exports = Object.values(APP_ARTIFACTS);
  const blocks = Object.entries(APP_ARTIFACTS).map(([name, exportName]) => {
    const { bytecode } = compiled[name]!;
    return `export const ${exportName} = {\n  abi: ${abiName(exportName)},\n  bytecode: '${bytecode}' as const,\n};\n`;
  });
  return [
    GENERATED,
    '// Each contract the app deploys: its ABI (lib/chain/abis.ts, typed `as const`) and bytecode. Server',
    '// and scripts only: a browser bundle imports abis.ts.',
    `import {\n${exports.map((name) => `  ${abiName(name)},\n`).join('')}} from './abis';`,
    '',
    blocks.join('\n'),
  ].join('\n');
}

/** Every generated file, keyed by path relative to the repository root. */
export function renderArtifactFiles(compiled: Record<string, CompiledContract>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, contract] of Object.entries(compiled).sort(([a], [b]) => a.localeCompare(b))) {
    const dir = contract.source.startsWith(TEST_DIR)
      ? 'contracts/out/test'
      : contract.source.startsWith(VENDORED_DIR)
        ? 'contracts/out/erc8004'
        : 'contracts/out';
    files[`${dir}/${name}.json`] = renderJson(contract);
  }
  files['lib/chain/abis.ts'] = renderAbisModule(compiled);
  files['lib/chain/artifacts.ts'] = renderArtifactsModule(compiled);
  return files;
}
