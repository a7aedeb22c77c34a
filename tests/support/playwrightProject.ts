import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { childEnvironment, createTemporaryFolder, repositoryRoot, type ProgramOutcome } from './runProgram.js';

const run = promisify(execFile);

/**
 * The node_modules the consumer projects take Playwright from: this
 * repository's (the locked version), or, with QE_PLAYWRIGHT_MODULES, another
 * install, such as the lowest version the package supports (`.ci/run` runs
 * the reporter specs against it too).
 */
export const PLAYWRIGHT_MODULES = process.env['QE_PLAYWRIGHT_MODULES'] ?? join(repositoryRoot, 'node_modules');

/** The version of that Playwright, as [major, minor]. */
export const PLAYWRIGHT_VERSION = (
  JSON.parse(readFileSync(join(PLAYWRIGHT_MODULES, '@playwright', 'test', 'package.json'), 'utf8')) as { version: string }
).version
  .split('.')
  .slice(0, 2)
  .map(Number) as [number, number];

let packedPackage: Promise<string> | undefined;

/**
 * Packs this repository once per worker with `npm pack` (the suite's global
 * setup has built `.build`; --ignore-scripts keeps `prepare` from building it
 * again under the specs that run meanwhile), so the projects below install
 * exactly the files a user would get from the registry. Returns the
 * tarball's path. tests/install.spec.ts installs with npm itself, from git
 * and from a tarball.
 */
function packThisPackage(): Promise<string> {
  packedPackage ??= (async () => {
    const folder = await createTemporaryFolder({}, 'pack');
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], { cwd: repositoryRoot });
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    return join(folder, filename);
  })();
  return packedPackage;
}

/** How a temporary consumer project is set up. */
export interface ProjectOptions {
  /** The project's package type: `module` (the default) or `commonjs`, as most TypeScript suites are. */
  readonly moduleType?: 'module' | 'commonjs';
}

/**
 * Creates a small Playwright project in a temporary folder from a map of
 * path → content. Its node_modules holds the packed quality-evidence and
 * links to this repository's Playwright, the package's dependencies (as its
 * package.json lists them), TypeScript and Node types, as `npm install` would.
 */
export async function createPlaywrightProject(
  files: Readonly<Record<string, string>>,
  { moduleType = 'module' }: ProjectOptions = {},
): Promise<string> {
  const project = await createTemporaryFolder({}, 'project');
  const modules = join(project, 'node_modules');
  await mkdir(join(modules, 'quality-evidence'), { recursive: true });
  // Unpacked in place, not linked, so its imports resolve from this project's node_modules.
  await run('tar', ['xzf', await packThisPackage(), '-C', join(modules, 'quality-evidence'), '--strip-components=1']);
  // The command, linked into node_modules/.bin and made executable, as npm install does with `bin`.
  const manifest = JSON.parse(await readFile(join(modules, 'quality-evidence', 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    dependencies: Record<string, string>;
  };
  await mkdir(join(modules, '.bin'));
  for (const [name, target] of Object.entries(manifest.bin)) {
    await chmod(join(modules, 'quality-evidence', target), 0o755);
    await symlink(join('..', 'quality-evidence', target), join(modules, '.bin', name));
  }
  for (const dependency of ['@playwright', 'playwright', 'playwright-core'])
    await symlink(join(PLAYWRIGHT_MODULES, dependency), join(modules, dependency), 'dir');
  // The package's own dependencies, as npm install would bring them (each link resolves its own dependencies from this
  // repository's node_modules), and the tools a consumer has.
  const scopesAndNames = new Set([...Object.keys(manifest.dependencies).map((name) => name.split('/')[0]!), 'typescript', '@types']);
  for (const dependency of scopesAndNames)
    await symlink(join(repositoryRoot, 'node_modules', dependency), join(modules, dependency), 'dir');
  const type = moduleType === 'module' ? ', "type": "module"' : '';
  await writeFile(join(project, 'package.json'), `{ "name": "consumer", "private": true${type} }\n`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), content);
  }
  return project;
}

/** The files of the packed package, as `npm pack` lists them. */
export async function packedFiles(): Promise<string[]> {
  const { stdout } = await run('tar', ['tzf', await packThisPackage()]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''))
    .sort();
}

/** Runs the Playwright CLI (`test`, `merge-reports`, ...) in a project, with exactly the given environment plus PATH and TMPDIR. */
export function runPlaywright(
  project: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<ProgramOutcome> {
  const cli = join(PLAYWRIGHT_MODULES, '@playwright', 'test', 'cli.js');
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { cwd: project, env: childEnvironment(env) }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ exitCode, stdout, stderr });
    });
  });
}
