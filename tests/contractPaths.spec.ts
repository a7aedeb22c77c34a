import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// A report names the contract's documents as the user gave them, relative to the working folder, never by the
// machine's absolute path: two checkouts of one project in two folders write the same report, byte for byte.

// Two Playwright runs of a packed project (about 30 s each on a loaded machine): 240 s.
test.describe.configure({ timeout: 240_000 });

const openapi = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'orders', version: '1' },
  paths: { '/orders': { get: { responses: { '200': { description: 'ok' } } } }, '/orders/{id}': { get: { responses: { '200': {} } } } },
});

const project = {
  'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  reporter: [['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', environment: 'ci', quiet: true, openapi: 'api/openapi.json' }]],
});
`,
  'api/openapi.json': openapi,
  'tests/orders.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('lists orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 });
  await recordExecution({ statusCode: 404, endpoint: 'GET /orders/7', responseTimeMs: 3 });
});
`,
};

test('two checkouts of one project in two folders write the same report bytes, the contract named as the Playwright config gives it', async () => {
  const first = await createPlaywrightProject(project);
  const second = await createPlaywrightProject(project);
  expect(first).not.toBe(second);

  for (const folder of [first, second]) expect((await runPlaywright(folder, ['test'])).exitCode).toBe(0);

  for (const file of ['quality-summary.json', 'quality-summary.md', 'quality-summary.html']) {
    const written = await readFile(join(first, 'out', file), 'utf8');
    expect(written, file).toBe(await readFile(join(second, 'out', file), 'utf8'));
    expect(written, file).not.toContain(first);
  }
  const report = JSON.parse(await readFile(join(first, 'out/quality-summary.json'), 'utf8')) as { contract: { documents: unknown } };
  expect(report.contract.documents).toStrictEqual([{ path: 'api/openapi.json', version: '3.0' }]);
});

test('a settings file named by its absolute path: the document it names is given relative to the working folder', async () => {
  const folder = await createTemporaryFolder(
    { 'input.json': JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] }) },
    'contract-paths',
  );
  await mkdir(join(folder, 'config'));
  await writeFile(join(folder, 'config/quality-evidence.config.json'), JSON.stringify({ openapi: 'openapi.json', environment: 'ci' }));
  await writeFile(join(folder, 'config/openapi.json'), openapi);
  const command = join(repositoryRoot, '.build/src/cli/main.js');
  const args = ['input.json', '--config', join(folder, 'config/quality-evidence.config.json'), '--output', 'q.json', '--quiet'];
  await promisify(execFile)(process.execPath, [command, ...args], { cwd: folder, env: childEnvironment() });

  const report = JSON.parse(await readFile(join(folder, 'q.json'), 'utf8')) as { contract: { documents: unknown } };
  expect(report.contract.documents).toStrictEqual([{ path: 'config/openapi.json', version: '3.0' }]);
});
