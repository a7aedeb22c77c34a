import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, pathExists, runProgram, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// No file a run reads, and no file it writes, is ever the job summary or the
// report: the summary is appended to, so naming the JSON report or an input
// there would break the one and change the other; a report written over the
// settings file (named, or the default one) would make the next run exit 78.
// Each is refused before anything is written, exit 73, however the paths are
// spelled (issue 18).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });
const settings = '{ "environment": "staging" }\n';
const earlier = '{ "earlier": true }\n';

const refused = (reason: string, program = 'quality-evidence'): ProgramOutcome => ({ exitCode: 73, stdout: '', stderr: `${program}: cannot write the report: ${reason}\n` });

function command(folder: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<ProgramOutcome> {
  return runProgram('src/cli/main.js', { cwd: folder, args: [...args, '--quiet'], env, timeoutMs: 30_000 });
}

test.describe('the job summary', () => {
  test('naming the JSON report (there from an earlier run) is refused, and the report stays as it was', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'q.json': earlier }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: join(folder, 'q.json') })).toEqual(
      refused('the job summary ($GITHUB_STEP_SUMMARY) is the output path: appending the summary there would break the report'),
    );
    expect(await readFile(join(folder, 'q.json'), 'utf8')).toBe(earlier);
  });

  test('naming the JSON report not written yet, spelled another way, is refused, and nothing is written', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    await mkdir(join(folder, 'out'));

    expect(await command(folder, ['in.json', '--output', 'out/q.json'], { GITHUB_STEP_SUMMARY: './out/../out/q.json' })).toEqual(
      refused('the job summary ($GITHUB_STEP_SUMMARY) is the output path: appending the summary there would break the report'),
    );
    expect(await pathExists(join(folder, 'out/q.json'))).toBe(false);
  });

  test('naming the Markdown report is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'q.md' })).toEqual(
      refused('the job summary ($GITHUB_STEP_SUMMARY) is the path of the Markdown report: appending the summary there would break the report'),
    );
  });

  test('naming an input, spelled another way, is refused, and the input stays as it was', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    await mkdir(join(folder, 'sub'));

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'sub/../in.json' })).toEqual(
      refused('the job summary ($GITHUB_STEP_SUMMARY) is the input file "in.json", which this run reads: appending the summary there would change it'),
    );
    expect(await readFile(join(folder, 'in.json'), 'utf8')).toBe(input);
    expect(await pathExists(join(folder, 'q.json'))).toBe(false);
  });

  test('naming the settings file is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'settings.json': settings }, 'disjoint');

    expect(await command(folder, ['in.json', '--config', 'settings.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'settings.json' })).toEqual(
      refused('the job summary ($GITHUB_STEP_SUMMARY) is the settings file "settings.json", which this run reads: appending the summary there would change it'),
    );
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(settings);
  });

  test('a file of its own is appended to, as before', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'summary.md' })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await readFile(join(folder, 'summary.md'), 'utf8')).toBe(`\n${await readFile(join(folder, 'q.md'), 'utf8')}`);
  });
});

test.describe('the output path', () => {
  test('naming the settings file --config names is refused, and the settings stay', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'settings.json': settings }, 'disjoint');

    expect(await command(folder, ['in.json', '--config', 'settings.json', '--output', 'settings.json'])).toEqual(
      refused('the output path is the settings file "settings.json", which this run reads: writing the report there would destroy it'),
    );
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(settings);
  });

  test('naming the default settings file, which is there, is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'quality-evidence.config.json': settings }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', './quality-evidence.config.json'])).toEqual(
      refused('the output path is the settings file "quality-evidence.config.json", which this run reads: writing the report there would destroy it'),
    );
    expect(await readFile(join(folder, 'quality-evidence.config.json'), 'utf8')).toBe(settings);
  });

  test('naming the default settings file, which is not there yet, is refused: the next run would read the report as its settings', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'quality-evidence.config.json'])).toEqual(
      refused('the output path is the settings file "quality-evidence.config.json", which this run reads: the next run would read the report as its settings file'),
    );
    expect(await pathExists(join(folder, 'quality-evidence.config.json'))).toBe(false);
  });

  test('the runner script: QE_OUTPUT_PATH naming the file QE_CONFIG_PATH names is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'settings.json': settings }, 'disjoint');

    const outcome = await runProgram('scripts/startEnvironment.js', { cwd: folder, env: { QE_INPUT_PATH: 'in.json', QE_CONFIG_PATH: 'settings.json', QE_OUTPUT_PATH: 'settings.json' } });

    expect(outcome).toEqual(
      refused('the output path is the settings file "settings.json", which this run reads: writing the report there would destroy it', 'quality-evidence start:environment'),
    );
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(settings);
  });
});

test('the reporter: a job summary naming its JSON report fails the run and writes nothing', async () => {
  // A Playwright run in a packed project (npm pack, once per worker): a few seconds idle, 10 to 18 s measured loaded.
  test.setTimeout(120_000);
  const project = await createPlaywrightProject({
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: './tests', reporter: [['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', quiet: true }]] });
`,
    'tests/one.spec.ts': "import { test } from '@playwright/test';\ntest('one', () => {});\n",
  });
  await mkdir(join(project, 'out'));
  await writeFile(join(project, 'out/quality-summary.json'), earlier);

  const outcome = await runPlaywright(project, ['test'], { GITHUB_STEP_SUMMARY: join(project, 'out/quality-summary.json') });

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stderr).toBe(
    'quality-evidence reporter: no report was written: cannot write the report: the job summary ($GITHUB_STEP_SUMMARY) is the output path: appending the summary there would break the report\n',
  );
  expect(await readFile(join(project, 'out/quality-summary.json'), 'utf8')).toBe(earlier);
});
