// Builds the package: the ES module build of tsconfig.build.json (.build/src,
// .build/reporter, the programs and the test support: the main tsconfig but
// the specs, which Playwright runs from their TypeScript) and the CommonJS build of
// tsconfig.cjs.json (.build/cjs), whose package.json marks its .js files as
// CommonJS. Plain JavaScript, so that it runs before anything is compiled.
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

const builds = [
  // Start from no compiled code, so that no file of a renamed or deleted source lingers in the package.
  {
    project: 'tsconfig.build.json',
    clean: ['.build/src', '.build/reporter', '.build/scripts', '.build/tests'],
    stamp: '.build/.inputs-es',
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
  process.stderr.write(`build: tsc failed for ${failed.join(' and ')}\n`);
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

function isUpToDate({ stamp, fingerprint, outputs, marker }) {
  const files = marker === undefined ? outputs : [...outputs, marker[0]];
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint && files.every((file) => existsSync(file));
}

/** Compiles one project from scratch; resolves to the project when tsc fails. */
async function compile({ project, clean, stamp, fingerprint, marker }) {
  // The stamp goes first and comes back only after a successful build: a failed or killed build is never taken as current.
  rmSync(stamp, { force: true });
  for (const folder of clean) rmSync(folder, { recursive: true, force: true });
  const code = await new Promise((done) => spawn(process.execPath, [tsc, '-p', project], { stdio: 'inherit' }).on('close', done));
  if (code !== 0) return project;
  if (marker !== undefined) writeFileSync(...marker);
  writeFileSync(stamp, fingerprint);
  return undefined;
}
