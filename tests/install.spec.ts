import { expect, test } from './support/test.js';
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GIT_ENVIRONMENT } from './support/git.js';
import { readReport } from './support/reports.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot } from './support/runProgram.js';

// A new Playwright project installs the package exactly as the README's
// install section says, with npm, both ways:
//
//   npm install --save-dev git+https://github.com/<owner>/quality-evidence.git#v0.1.0
//   npm install --save-dev ./quality-evidence-0.1.0.tgz
//
// the git URL being a git+file:// one of a repository the spec makes from
// this one (npm clones it, installs its devDependencies, runs `prepare`, which
// builds .build, and packs it), the tarball one made with `npm pack` in a
// clone of that repository. In each project the command runs, the reporter
// writes its report in a real Playwright run against a local API, and a spec
// importing quality-evidence/test type-checks. The registry must be reachable
// (for Playwright, TypeScript and the package's devDependencies); both
// installs share one npm cache in the spec's temporary folder.

const manifest = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const tag = `v${manifest.version}`;
const require = createRequire(import.meta.url);
/** The version this repository locks of a package a consumer installs too, so that the cache serves both. */
const locked = (name: string): string => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`;

// Both ways in one worker, in order: the second install finds the first's cache. Each test installs
// from the registry (the git URL also installs the package's devDependencies in npm's clone and builds
// it twice with tsc), runs Playwright and tsc in the project: 3.2 and 1.4 min measured on a loaded
// machine; 15 min each, for a slow registry.
test.describe.configure({ mode: 'default', timeout: 15 * 60_000 });

interface Sources {
  /** The spec's temporary folder. */
  readonly folder: string;
  /** A bare git repository holding the commit under test as `main` and as the release tag. */
  readonly repository: string;
  /** The npm cache both installs share. */
  readonly cache: string;
}

let sources: Promise<Sources> | undefined;

/**
 * The repository npm installs from: this one's HEAD with the uncommitted
 * changes to its tracked files (`git stash create`, which leaves the working
 * tree and the stash list alone), so that a change is tested before it is
 * committed; files git does not track are not in it, as they would not be
 * in a commit. Made once per worker. Every git command, the ones npm runs
 * included, has the suite's own identity and none of the machine's git
 * configuration (GIT_ENVIRONMENT).
 */
function sourcesOnce(): Promise<Sources> {
  sources ??= (async () => {
    const folder = await createTemporaryFolder({}, 'install');
    const repository = join(folder, 'quality-evidence.git');
    await mkdir(join(folder, 'tmp'));
    const stash = (await command('git', ['stash', 'create'], repositoryRoot, GIT_ENVIRONMENT)).trim();
    const commit = stash === '' ? (await command('git', ['rev-parse', 'HEAD'], repositoryRoot, GIT_ENVIRONMENT)).trim() : stash;
    await command('git', ['init', '--quiet', '--bare', repository], folder, GIT_ENVIRONMENT);
    const refs = [`${commit}:refs/heads/main`, `${commit}:refs/tags/${tag}`];
    await command('git', ['push', '--quiet', '--no-verify', repository, ...refs], repositoryRoot, GIT_ENVIRONMENT);
    await command('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], repository, GIT_ENVIRONMENT);
    return { folder, repository, cache: join(folder, 'npm-cache') };
  })();
  return sources;
}

/**
 * The environment of every program the spec starts: PATH, HOME (for the
 * user's npm configuration: registry, certificates) and the proxy and npm
 * settings given in the environment, but none of the variables npm or
 * Playwright set for the suite itself; temporary files go into the spec's
 * folder; the git npm runs to fetch a git dependency reads none of the
 * machine's git configuration (GIT_ENVIRONMENT).
 */
function environment(folder: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined &&
      /^(PATH|HOME|NPM_CONFIG_\w+|npm_config_registry|(HTTPS?|NO)_PROXY|(https?|no)_proxy|NODE_EXTRA_CA_CERTS)$/.test(entry[0]),
  );
  return { ...Object.fromEntries(kept), ...GIT_ENVIRONMENT, TMPDIR: join(folder, 'tmp'), ...extra };
}

/** Runs a program to its end; its stdout, or an error with everything it printed. */
function command(program: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<string> {
  return new Promise((done, failed) => {
    execFile(program, args, { cwd, env: childEnvironment(env), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) done(stdout);
      else failed(new Error(`${program} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
    });
  });
}

/** The flags every npm command of the spec adds to what a user types: the shared cache, no audit, no funding notice. */
function npmFlags(cache: string): string[] {
  return [`--cache=${cache}`, '--prefer-offline', '--no-audit', '--no-fund'];
}

let server: Server;
let apiUrl: string;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const found = request.method === 'GET' && request.url === '/orders';
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(found ? '[{"id":1}]' : '{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((closed) => server.close(closed));
});

/**
 * The project a user has before installing the package: Playwright and
 * TypeScript, a config that names the reporter, a shared fixture file that
 * takes `test` and Playwright's types from quality-evidence/test, and a spec.
 */
async function createConsumer(folder: string, cache: string, moduleType: 'module' | 'commonjs'): Promise<string> {
  const project = join(folder, `consumer-${moduleType}`);
  await mkdir(join(project, 'tests'), { recursive: true });
  const type = moduleType === 'module' ? ', "type": "module"' : '';
  const files: Record<string, string> = {
    'package.json': `{ "name": "consumer", "private": true${type} }\n`,
    'tsconfig.json': `{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "noEmit": true, "types": ["node"] } }\n`,
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  reporter: [['list'], ['quality-evidence/reporter']],
});
`,
    'tests/fixtures.ts': `import { test as base, expect, type APIRequestContext, type Page } from 'quality-evidence/test';

export const test = base.extend<{ api: APIRequestContext; pageType: Page | undefined }>({
  api: async ({ request }, use) => {
    await use(request);
  },
  pageType: undefined,
});
export { expect };
`,
    'tests/orders.spec.ts': `import { test, expect } from './fixtures.js';

test('lists orders and misses an invoice', async ({ api }) => {
  expect((await api.get(\`\${process.env.API_URL}/orders\`)).status()).toBe(200);
  expect((await api.get(\`\${process.env.API_URL}/invoices/7\`)).status()).toBe(404);
});
`,
  };
  for (const [path, content] of Object.entries(files)) await writeFile(join(project, path), content);
  await npmAsUser(
    ['install', '--save-dev', locked('@playwright/test'), locked('typescript'), locked('@types/node')],
    project,
    folder,
    cache,
  );
  return project;
}

/** Runs an npm command a user types (with the spec's flags) and notes how long it took, in the test's annotations. */
async function npmAsUser(args: readonly string[], cwd: string, folder: string, cache: string): Promise<void> {
  const started = performance.now();
  await command('npm', [...args, ...npmFlags(cache)], cwd, environment(folder));
  test
    .info()
    .annotations.push({ type: 'npm', description: `npm ${args.join(' ')}: ${((performance.now() - started) / 1000).toFixed(1)} s` });
}

/** What a user checks after installing: the command, a Playwright run with the reporter, the types. */
async function expectWorkingPackage(project: string, folder: string): Promise<void> {
  expect(await command('npx', ['quality-evidence', '--version'], project, environment(folder))).toBe(`${manifest.version}\n`);

  await command('npx', ['playwright', 'test'], project, environment(folder, { API_URL: apiUrl }));
  const report = await readReport(join(project, '.build/quality-summary.json'));
  expect(report).toMatchObject({
    environment: 'local',
    executionCount: 2,
    failedExecutionCount: 1,
    failureCountByEndpoint: { 'GET /invoices/:id': 1 },
    statusCodes: { '200': 1, '404': 1 },
    tests: { total: 1, passed: 1, failed: 0, flaky: 0, skipped: 0 },
  });

  expect(await command('npx', ['tsc', '--noEmit', '-p', '.'], project, environment(folder))).toBe('');
}

test('a project installs the package from a git URL, npm building it on install, and it works', async () => {
  const { folder, repository, cache } = await sourcesOnce();
  const project = await createConsumer(folder, cache, 'module');

  await npmAsUser(['install', '--save-dev', `git+${pathToFileURL(repository).href}#${tag}`], project, folder, cache);

  await expectWorkingPackage(project, folder);
});

test('a project installs the tarball npm pack makes in a clone, and it works', async () => {
  const { folder, repository, cache } = await sourcesOnce();
  const clone = join(folder, 'clone');
  await command('git', ['clone', '--quiet', '--branch', tag, repository, clone], folder, GIT_ENVIRONMENT);
  await npmAsUser(['ci'], clone, folder, cache);
  await npmAsUser(['pack'], clone, folder, cache);
  const project = await createConsumer(folder, cache, 'commonjs');
  const tarball = `${manifest.name}-${manifest.version}.tgz`;
  await copyFile(join(clone, tarball), join(project, tarball));

  await npmAsUser(['install', '--save-dev', `./${tarball}`], project, folder, cache);

  await expectWorkingPackage(project, folder);
});

test("npm reads the README's github: shorthand as a git dependency on the same repository and tag as its git+https URL", () => {
  // npm's own parser of package specs (npm-package-arg), from the npm on PATH:
  // the shorthand cannot be fetched offline, and a git spec is fetched by the
  // same clone, install, prepare and pack as the git+file:// URL above.
  const npmRoot = dirname(dirname(realpathSync(join(dirname(process.execPath), 'npm'))));
  const parse = createRequire(join(npmRoot, 'package.json'))('npm-package-arg') as (spec: string) => {
    type: string;
    gitCommittish: string | null;
    hosted: { https(options: { noCommittish: boolean }): string } | null;
  };
  const describe = (spec: string): unknown => {
    const parsed = parse(spec);
    return { type: parsed.type, repository: parsed.hosted?.https({ noCommittish: true }), committish: parsed.gitCommittish };
  };

  expect(describe('github:owner/quality-evidence#v0.1.0')).toEqual({
    type: 'git',
    repository: 'https://github.com/owner/quality-evidence.git',
    committish: 'v0.1.0',
  });
  expect(describe('git+https://github.com/owner/quality-evidence.git#v0.1.0')).toEqual(describe('github:owner/quality-evidence#v0.1.0'));
});
