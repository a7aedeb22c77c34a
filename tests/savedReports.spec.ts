import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generatedRecords } from './support/generatedRun.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The reports (JSON, Markdown, HTML) that main wrote before the evidence run
// was redesigned, kept in tests/saved-reports: every byte must stay the same.
// A later change that adds a field on purpose rewrites them with
// QE_UPDATE_SAVED_REPORTS=1 and says so in its commit. The reporter project's
// files are kept as .txt, so that neither this suite nor tsc takes them.

// The command in child processes, and one Playwright run in a packed project (33 s measured on a loaded machine): 120 s each.
test.describe.configure({ timeout: 120_000 });

const SAVED = join(repositoryRoot, 'tests/saved-reports');
const COMMAND = join(repositoryRoot, '.build/src/cli/main.js');
const REPORT_FILES = ['quality-summary.json', 'quality-summary.md', 'quality-summary.html'] as const;
const updating = process.env['QE_UPDATE_SAVED_REPORTS'] === '1';

/** Runs the command in `folder` with only PATH in its environment; its exit code. */
async function command(folder: string, args: readonly string[]): Promise<number> {
  try {
    await promisify(execFile)(process.execPath, [COMMAND, ...args, '--quiet'], { cwd: folder, env: childEnvironment() });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

/** Compares the three report files in `written` with the saved ones of `name` (or saves them when updating). */
async function expectSavedReports(name: string, written: string, exitCode: number): Promise<void> {
  const outcome = `exit code ${exitCode}\n`;
  if (updating) {
    for (const file of REPORT_FILES) await cp(join(written, file), join(SAVED, name, file));
    await writeFile(join(SAVED, name, 'exit-code.txt'), outcome);
    return;
  }
  expect(outcome).toBe(await readFile(join(SAVED, name, 'exit-code.txt'), 'utf8'));
  for (const file of REPORT_FILES) {
    expect(await readFile(join(written, file), 'utf8'), `${name}/${file}`).toBe(await readFile(join(SAVED, name, file), 'utf8'));
  }
}

test('the bundled fixture gives the saved reports', async () => {
  const folder = await createTemporaryFolder();
  await cp(join(SAVED, 'fixture/input.json'), join(folder, 'input.json'));

  const exitCode = await command(folder, ['input.json', '--environment', 'local-example', '--output', 'quality-summary.json']);

  await expectSavedReports('fixture', folder, exitCode);
});

test('a generated run of 200 endpoints, with budgets and a baseline, gives the saved reports', async () => {
  const folder = await createTemporaryFolder();
  await writeFile(join(folder, 'baseline-input.json'), JSON.stringify({ executions: generatedRecords(200, 1) }));
  await writeFile(join(folder, 'input.json'), JSON.stringify({ executions: generatedRecords(200) }));
  await cp(join(SAVED, 'generated/budgets.json'), join(folder, 'budgets.json'));
  expect(await command(folder, ['baseline-input.json', '--environment', 'main', '--output', 'baseline.json', '--formats', 'json'])).toBe(0);

  const exitCode = await command(folder, [
    'input.json',
    '--environment',
    'pull-request',
    '--budgets',
    'budgets.json',
    '--baseline',
    'baseline.json',
    '--output',
    'quality-summary.json',
  ]);

  await expectSavedReports('generated', folder, exitCode);
});

test('a HAR file gives the saved reports', async () => {
  const folder = await createTemporaryFolder();
  await cp(join(SAVED, 'har/session.har'), join(folder, 'session.har'));

  const exitCode = await command(folder, ['session.har', '--environment', 'browser', '--output', 'quality-summary.json']);

  await expectSavedReports('har', folder, exitCode);
});

test('records with trace ids, and a trace URL template, give the saved reports: each failed and slow call linked to its trace', async () => {
  const folder = await createTemporaryFolder();
  await cp(join(SAVED, 'traces/calls.ndjson'), join(folder, 'calls.ndjson'));

  const exitCode = await command(folder, [
    'calls.ndjson',
    '--environment',
    'traced',
    '--trace-url-template',
    'https://grafana.example/explore?traceId={traceId}&spanId={spanId}',
    '--output',
    'quality-summary.json',
  ]);

  await expectSavedReports('traces', folder, exitCode);
});

test('a HAR file read with an OpenAPI document gives the saved reports, with the conditions each operation called never met', async () => {
  const folder = await createTemporaryFolder();
  await cp(join(SAVED, 'contract/calls.har'), join(folder, 'calls.har'));
  await cp(join(SAVED, 'contract/api.yaml'), join(folder, 'api.yaml'));

  const exitCode = await command(folder, [
    'calls.har',
    '--openapi',
    'api.yaml',
    '--environment',
    'contract',
    '--output',
    'quality-summary.json',
  ]);

  await expectSavedReports('contract', folder, exitCode);
});

test('a reporter run gives the saved reports', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': await readFile(join(SAVED, 'reporter/playwright.config.txt'), 'utf8'),
  });
  await mkdir(join(project, 'tests'));
  await cp(join(SAVED, 'reporter/orders.spec.txt'), join(project, 'tests/orders.spec.ts'));

  const { exitCode } = await runPlaywright(project, ['test']);

  await expectSavedReports('reporter', join(project, 'out'), exitCode);
});
