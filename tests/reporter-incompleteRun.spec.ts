import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, PLAYWRIGHT_MODULES, runPlaywright } from './support/playwrightProject.js';
import { childEnvironment, type ProgramOutcome } from './support/runProgram.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// A Playwright run stopped before its tests were done (Ctrl-C, --global-timeout)
// writes what ran, and says it stopped: no passing verdict, no budget that
// passes, no `check` that passes. Real Playwright, on a small project.
// A Playwright run each, interrupted or timed out on purpose (15 to 27 s measured on a loaded machine): 240 s each.
test.describe.configure({ timeout: 240_000 });

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', budgets: { minExecutions: 1, maxFailedExecutions: 0 } }]],
});
`;

// Orders 1 and 2 record a call and pass; order 3 says it waits, then waits until the run is stopped, and 4 to 6 never start.
const ordersSpec = `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
for (const id of [1, 2, 3, 4, 5, 6]) {
  test('order ' + id, async () => {
    test.setTimeout(0);
    if (id > 2) {
      console.log('order ' + id + ' waits until the run is stopped');
      await new Promise(() => {});
    }
    await recordExecution({ statusCode: 200, endpoint: 'GET /orders/:id', responseTimeMs: 10 });
  });
}
`;

/**
 * Runs `playwright test` in the project and presses Ctrl-C once the second
 * test has ended and the third is waiting (the list reporter shows its
 * output): SIGINT to the process group, runner and workers, as a terminal
 * sends it. Pressed at the very moment the second test ends, the signal can
 * land between two tests, where Playwright 1.65 sometimes never stops.
 */
function runUntilSecondTest(project: string): Promise<ProgramOutcome> {
  const cli = join(PLAYWRIGHT_MODULES, '@playwright', 'test', 'cli.js');
  const child = spawn(process.execPath, [cli, 'test'], { cwd: project, env: childEnvironment(), detached: true });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (!interrupted && child.pid !== undefined && /order 3 waits until the run is stopped/.test(stdout)) {
      interrupted = true;
      process.kill(-child.pid, 'SIGINT');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((done) => {
    child.on('close', (code) => {
      done({ exitCode: code ?? -1, stdout, stderr });
    });
  });
}

/** `quality-evidence check` of the project's report, with the arguments given. */
function check(project: string, args: readonly string[]): Promise<ProgramOutcome> {
  const command = join(project, 'node_modules/quality-evidence/.build/src/cli/main.js');
  return new Promise((done) => {
    execFile(
      process.execPath,
      [command, 'check', 'out/quality-summary.json', ...args],
      { cwd: project, env: childEnvironment() },
      (error, stdout, stderr) => {
        done({ exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

test(`Ctrl-C after 2 of 6 tests (during the third): the report says the run was interrupted, shows no passing verdict, its \
budgets fail and check exits 1`, async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config,
    'tests/orders.spec.ts': ordersSpec,
    'budgets.json': '{ "minExecutions": 1, "maxFailedExecutions": 0 }\n',
  });

  const outcome = await runUntilSecondTest(project);

  expect(outcome.exitCode, 'Playwright keeps its own exit code for Ctrl-C').toBe(130);
  const report = await readReport(join(project, 'out/quality-summary.json'));
  expect(report.runStatus).toBe('interrupted');
  expect(report.executionCount).toBe(2);
  expect(report.budgets).toEqual({
    passed: false,
    results: [
      { budget: 'minExecutions', limit: 1, actual: 2, passed: true },
      { budget: 'maxFailedExecutions', limit: 0, actual: 0, passed: true },
    ],
  });
  expect(outcome.stderr).toContain(
    'quality-evidence reporter: the run was interrupted before its tests were done: the report holds only what ran, and gets no passing verdict\n',
  );
  expect(outcome.stdout).toContain(
    'quality-evidence: 2 calls: 0 server errors, 0 failed, 0 slow, 0 with no response; the run was interrupted ' +
      'before its tests were done: the evidence is incomplete; report written to',
  );
  const markdown = await readFile(join(project, 'out/quality-summary.md'), 'utf8');
  expect(markdown.split('\n')[2]).toBe(
    '⚠️ **The run was interrupted before its tests were done: the evidence is incomplete** · 2 calls · 0 server ' +
      'errors · 0 failed · 0 slow (over 750 ms) · 0 with no response',
  );
  expect(markdown).not.toContain('✅ pass');
  const html = await readFile(join(project, 'out/quality-summary.html'), 'utf8');
  expect(html).toContain(
    '<p class="verdict warn" data-verdict="incomplete"><span aria-hidden="true">⚠</span> The run was interrupted before ' +
      'its tests were done: the evidence is incomplete</p>',
  );
  expect(html).not.toContain('✔ pass');

  const recorded = await check(project, []);
  expect(recorded.exitCode, 'check of the recorded verdict').toBe(1);
  expect(recorded.stdout).toContain(
    'quality-evidence check: the run was interrupted before its tests were done: the evidence is incomplete, so it passes no budget\n',
  );
  expect((await check(project, ['--budgets', 'budgets.json'])).exitCode, 'check with the budgets judged afresh').toBe(1);
});

test('--global-timeout: the report says the run timed out and its budgets fail', async () => {
  const project = await createPlaywrightProject({ 'playwright.config.ts': config, 'tests/orders.spec.ts': ordersSpec });

  const outcome = await runPlaywright(project, ['test', '--global-timeout=15000']);

  expect(outcome.exitCode).toBe(1);
  const report = await readReport(join(project, 'out/quality-summary.json'));
  expect(report.runStatus).toBe('timedout');
  expect(report.budgets?.passed).toBe(false);
  const markdown = await readFile(join(project, 'out/quality-summary.md'), 'utf8');
  expect(markdown.split('\n')[2]).toMatch(/^⚠️ \*\*The run timed out before its tests were done: the evidence is incomplete\*\* · /);
});
