// Builds the package: the ES module build of tsconfig.build.json (.build/src,
// .build/reporter, the programs and the test support: the main tsconfig but
// the specs, which Playwright runs from their TypeScript) and the CommonJS build of
// tsconfig.cjs.json (.build/cjs), whose package.json marks its .js files as
// CommonJS. The programs a user starts are then bundled into .build/bin
// (see PROGRAMS below). Plain JavaScript, so that it runs before anything is compiled.
//
// `--if-changed` (the test suite's setup, and `npm start` and the other
// programs' scripts, so a second `npm start` runs at once) skips a build whose inputs are byte
// for byte those of its last successful build and whose outputs are all
// there. The inputs are what TypeScript itself lists for the project (every
// source file, by path and content), its compiler options, package.json
// (NodeNext reads its "type") and the compiler's version: any changed, added,
// removed or renamed source rebuilds, so a stale .build never runs a spec.
// A build that changes anything starts from no compiled code, as before.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const require = createRequire(import.meta.url);
const ts = require('typescript');
const tsc = require.resolve('typescript/bin/tsc');

/**
 * The programs a user starts, bundled into .build/bin by esbuild from the ES
 * build: the `quality-evidence` command (the package's bin),
 * `npm run start:environment`, and the command's worker thread. A program of
 * the ES build loads about 300 modules (ours and zod's) one file at a time
 * before it reads a record; bundled, it loads a few chunks, and starts in
 * 0.23 s instead of 0.30 (one record, docs/performance.md, "Start-up").
 * What a program imports when a feature asks for it (the renderers, each
 * subcommand, the contract's and the exports' modules) stays a chunk of its
 * own, loaded as before. Packages stay outside the bundle, loaded from
 * node_modules as before, but zod, which every run loads (95 modules).
 */
const PROGRAMS = {
  'quality-evidence': '.build/src/cli/main.js',
  startEnvironment: '.build/scripts/startEnvironment.js',
  // Beside the chunks: src/cli/earlyWorkers.ts finds it at ./summariseWorker.js from its own chunk.
  summariseWorker: '.build/src/cli/summariseWorker.js',
};

async function bundlePrograms() {
  const { build } = await import('esbuild');
  const packagesBesidesZod = {
    name: 'packages-besides-zod',
    setup(bundle) {
      bundle.onResolve({ filter: /^[^./]/ }, ({ path }) =>
        path === 'zod' || path.startsWith('zod/') ? undefined : { path, external: true },
      );
    },
  };
  await build({
    entryPoints: PROGRAMS,
    outdir: '.build/bin',
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [packagesBesidesZod],
    logLevel: 'warning',
  });
}

const builds = [
  // Start from no compiled code, so that no file of a renamed or deleted source lingers in the package.
  {
    project: 'tsconfig.build.json',
    clean: ['.build/src', '.build/reporter', '.build/scripts', '.build/tests', '.build/bin'],
    stamp: '.build/.inputs-es',
    then: bundlePrograms,
    products: Object.keys(PROGRAMS).map((name) => `.build/bin/${name}.js`),
  },
  {
    project: 'tsconfig.cjs.json',
    clean: ['.build/cjs'],
    stamp: '.build/.inputs-cjs',
    marker: ['.build/cjs/package.json', '{ "type": "commonjs" }\n'],
  },
];

const onlyIfChanged = process.argv.includes('--if-changed');
// `--quiet` (the programs' npm scripts): nothing printed when nothing was built, so `npm start` prints only its run.
const quiet = process.argv.includes('--quiet');
const pending = builds.map((build) => ({ ...build, ...inputsOf(build.project) })).filter((build) => !(onlyIfChanged && isUpToDate(build)));
if (onlyIfChanged && pending.length === 0 && !quiet) process.stdout.write('build: .build is up to date with every source\n');
// The two compilations write separate folders: on two cores or more they run side by side.
const failed = (await Promise.all(pending.map(compile))).filter((project) => project !== undefined);
if (failed.length > 0) {
  process.stderr.write(`build: failed for ${failed.join(' and ')}\n`);
  process.exitCode = 1;
}

/** What a project compiles (TypeScript's own list of its files), the fingerprint of all of it, and every file it emits. */
function inputsOf(project) {
  const { config, error } = ts.readConfigFile(project, ts.sys.readFile);
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, process.cwd(), undefined, project);
  const hash = createHash('sha256').update(`${ts.version}\0${JSON.stringify(parsed.options)}\0${readFileSync('package.json')}\0`);
  for (const file of [...parsed.fileNames].sort()) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  const outputs = parsed.fileNames.flatMap((file) => ts.getOutputFileNames(parsed, file, false));
  return { fingerprint: hash.digest('hex'), outputs };
}

function isUpToDate({ stamp, fingerprint, outputs, marker, products = [] }) {
  const files = [...outputs, ...products, ...(marker === undefined ? [] : [marker[0]])];
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint && files.every((file) => existsSync(file));
}

/** Compiles one project from scratch; resolves to the project when tsc fails. */
async function compile({ project, clean, stamp, fingerprint, marker, then }) {
  // The stamp goes first and comes back only after a successful build: a failed or killed build is never taken as current.
  rmSync(stamp, { force: true });
  for (const folder of clean) rmSync(folder, { recursive: true, force: true });
  const code = await new Promise((done) => spawn(process.execPath, [tsc, '-p', project], { stdio: 'inherit' }).on('close', done));
  if (code !== 0) return project;
  if (then !== undefined) {
    try {
      await then();
    } catch (error) {
      process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
      return project;
    }
  }
  if (marker !== undefined) writeFileSync(...marker);
  writeFileSync(stamp, fingerprint);
  return undefined;
}
