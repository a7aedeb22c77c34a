import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
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

const refused = (reason: string, program = 'quality-evidence'): ProgramOutcome => ({
  exitCode: 73,
  stdout: '',
  stderr: `${program}: cannot write the report: ${reason}\n`,
});

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
      refused(
        'the job summary ($GITHUB_STEP_SUMMARY) is the path of the Markdown report: appending the summary there would break the report',
      ),
    );
  });

  test('naming an input, spelled another way, is refused, and the input stays as it was', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    await mkdir(join(folder, 'sub'));

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'sub/../in.json' })).toEqual(
      refused(
        'the job summary ($GITHUB_STEP_SUMMARY) is the input file "in.json", which this run reads: appending the summary there would change it',
      ),
    );
    expect(await readFile(join(folder, 'in.json'), 'utf8')).toBe(input);
    expect(await pathExists(join(folder, 'q.json'))).toBe(false);
  });

  test('naming the settings file is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'settings.json': settings }, 'disjoint');

    expect(
      await command(folder, ['in.json', '--config', 'settings.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'settings.json' }),
    ).toEqual(
      refused(
        'the job summary ($GITHUB_STEP_SUMMARY) is the settings file "settings.json", which this run reads: appending the summary there would change it',
      ),
    );
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(settings);
  });

  test('a file of its own is appended to, as before', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'q.json'], { GITHUB_STEP_SUMMARY: 'summary.md' })).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
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
      refused(
        'the output path is the settings file "quality-evidence.config.json", which this run reads: writing the report there would destroy it',
      ),
    );
    expect(await readFile(join(folder, 'quality-evidence.config.json'), 'utf8')).toBe(settings);
  });

  test('naming the default settings file, which is not there yet, is refused: the next run would read the report as its settings', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');

    expect(await command(folder, ['in.json', '--output', 'quality-evidence.config.json'])).toEqual(
      refused(
        'the output path is the settings file "quality-evidence.config.json", which this run reads: the next run would read the report as its settings file',
      ),
    );
    expect(await pathExists(join(folder, 'quality-evidence.config.json'))).toBe(false);
  });

  test('the runner script: QE_OUTPUT_PATH naming the file QE_CONFIG_PATH names is refused', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'settings.json': settings }, 'disjoint');

    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { QE_INPUT_PATH: 'in.json', QE_CONFIG_PATH: 'settings.json', QE_OUTPUT_PATH: 'settings.json' },
    });

    expect(outcome).toEqual(
      refused(
        'the output path is the settings file "settings.json", which this run reads: writing the report there would destroy it',
        'quality-evidence start:environment',
      ),
    );
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(settings);
  });
});

test('the reporter: a job summary naming its JSON report stops the run before any test, and writes nothing', async () => {
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
  // Checked with the rest of the destination when the reporter starts (see openRun), so no test runs for a report that could not be written.
  expect(outcome.stdout + outcome.stderr).toContain(
    'ReportWriteError: cannot write the report: the job summary ($GITHUB_STEP_SUMMARY) is the output path: appending the summary there would break the report',
  );
  expect(outcome.stdout).not.toContain('1 passed');
  expect(await readFile(join(project, 'out/quality-summary.json'), 'utf8')).toBe(earlier);
});

/** Every file under a folder, by its path there, with its bytes: what a refused run must leave as it was. */
async function filesUnder(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const contents = await Promise.all(
    files.map(async (file) => [relative(folder, file), (await readFile(file)).toString('base64')] as const),
  );
  return Object.fromEntries(contents.sort(([a], [b]) => (a < b ? -1 : 1)));
}

test.describe('a file an OpenAPI document brings in through $ref is a file the run reads: no file of the run may be it (issue 34)', () => {
  const api =
    'openapi: 3.1.0\ninfo: { title: shop, version: "1" }\npaths:\n  /orders:\n    get:\n      responses:\n' +
    '        "200":\n          description: the orders\n          content:\n            application/json:\n' +
    '              schema:\n                $ref: "./schemas/order.yaml"\n';
  const order = 'type: object\nproperties:\n  id: { type: integer }\n';
  const ordersInput = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });

  async function splitDocument(): Promise<string> {
    const folder = await createTemporaryFolder({ 'in.json': ordersInput, 'api.yaml': api }, 'ref');
    await mkdir(join(folder, 'schemas'));
    await writeFile(join(folder, 'schemas/order.yaml'), order);
    return folder;
  }

  const cases: readonly { name: string; args: readonly string[]; env?: Readonly<Record<string, string>>; reason: string }[] = [
    {
      name: 'the output path',
      args: ['in.json', '--openapi', 'api.yaml', '--output', 'schemas/order.yaml'],
      reason:
        'the output path is the OpenAPI document "schemas/order.yaml", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'an export, spelled another way',
      args: ['in.json', '--openapi', 'api.yaml', '--output', 'q.json', '--export', 'junit=./schemas/../schemas/order.yaml'],
      reason:
        'the junit export is the OpenAPI document "schemas/order.yaml", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the job summary',
      args: ['in.json', '--openapi', 'api.yaml', '--output', 'q.json'],
      env: { GITHUB_STEP_SUMMARY: 'schemas/order.yaml' },
      reason:
        'the job summary ($GITHUB_STEP_SUMMARY) is the OpenAPI document "schemas/order.yaml", which this run reads: ' +
        'appending the summary there would change it',
    },
  ];
  for (const { name, args, env, reason } of cases) {
    test(`${name} naming it is refused (73), and every file stays as it was`, async () => {
      const folder = await splitDocument();
      const before = await filesUnder(folder);

      expect(await command(folder, args, env)).toEqual(refused(reason));
      expect(await filesUnder(folder)).toEqual(before);
    });
  }

  test('merge -o naming it is refused (73), and every file stays as it was', async () => {
    const folder = await splitDocument();
    expect((await command(folder, ['in.json', '--output', 'a.json'])).exitCode).toBe(0);
    const before = await filesUnder(folder);

    expect(await command(folder, ['merge', 'a.json', '--openapi', 'api.yaml', '-o', 'schemas/order.yaml'])).toEqual(
      refused(
        'the output path is the OpenAPI document "schemas/order.yaml", which this run reads: writing the report there would destroy it',
      ),
    );
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('--history naming it is refused, for it is no history (65), and every file stays as it was', async () => {
    const folder = await splitDocument();
    const before = await filesUnder(folder);

    expect(await command(folder, ['in.json', '--openapi', 'api.yaml', '--output', 'q.json', '--history', 'schemas/order.yaml'])).toEqual({
      exitCode: 65,
      stdout: '',
      stderr:
        'quality-evidence: the history file "schemas/order.yaml" is not a history of quality-evidence: ' +
        'its first line is not the header a history starts with ({"schemaVersion":1,"kind":"quality-evidence history"}); ' +
        'a run appends only to a history, or to an empty or absent file, which it makes one\n',
    });
    expect(await filesUnder(folder)).toEqual(before);
  });
});

test.describe('the job summary naming an export file is refused (73), however spelled, and every file stays as it was (issue 34)', () => {
  const files: Readonly<Record<string, string>> = {
    junit: 'junit.xml',
    ctrf: 'ctrf.json',
    prometheus: 'metrics.prom',
    'benchmark-action': 'benchmark.json',
  };
  for (const [kind, file] of Object.entries(files)) {
    test(`the ${kind} export, there from an earlier run`, async () => {
      const folder = await createTemporaryFolder({ 'in.json': input, [file]: earlier }, 'disjoint');
      const before = await filesUnder(folder);

      expect(
        await command(folder, ['in.json', '--output', 'q.json', '--export', `${kind}=${file}`], { GITHUB_STEP_SUMMARY: `./${file}` }),
      ).toEqual(refused(`the job summary ($GITHUB_STEP_SUMMARY) is the ${kind} export: appending the summary there would break it`));
      expect(await filesUnder(folder)).toEqual(before);
    });
  }

  test('through a link to it', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'metrics.prom': earlier }, 'disjoint');
    await symlink('metrics.prom', join(folder, 'summary.md'));
    const before = await filesUnder(folder);

    expect(
      await command(folder, ['in.json', '--output', 'q.json', '--export', 'prometheus=metrics.prom'], {
        GITHUB_STEP_SUMMARY: 'summary.md',
      }),
    ).toEqual(refused('the job summary ($GITHUB_STEP_SUMMARY) is the prometheus export: appending the summary there would break it'));
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('not there yet, spelled another way: nothing is written', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    await mkdir(join(folder, 'out'));

    expect(
      await command(folder, ['in.json', '--output', 'q.json', '--export', 'ctrf=out/ctrf.json'], {
        GITHUB_STEP_SUMMARY: 'out/../out/ctrf.json',
      }),
    ).toEqual(refused('the job summary ($GITHUB_STEP_SUMMARY) is the ctrf export: appending the summary there would break it'));
    expect(await filesUnder(folder)).toEqual({ 'in.json': Buffer.from(input).toString('base64') });
  });

  test('of merge', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    expect((await command(folder, ['in.json', '--output', 'a.json'])).exitCode).toBe(0);
    await writeFile(join(folder, 'junit.xml'), earlier);
    const before = await filesUnder(folder);

    expect(
      await command(folder, ['merge', 'a.json', '--output', 'all.json', '--export', 'junit=junit.xml'], {
        GITHUB_STEP_SUMMARY: join(folder, 'junit.xml'),
      }),
    ).toEqual(refused('the job summary ($GITHUB_STEP_SUMMARY) is the junit export: appending the summary there would break it'));
    expect(await filesUnder(folder)).toEqual(before);
  });
});

test.describe(`a path that goes up (..) out of a folder not there yet names what it names only once the write makes the \
folder: refused (73), and every file stays as it was (issue 34)`, () => {
  const goesUp = (role: string): string =>
    `the ${role} goes up (..) out of a folder that is not there yet, so what it names is known only once the folder is made; name the file without it`;

  test('the output path naming the input so', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    const before = await filesUnder(folder);

    expect(await command(folder, ['in.json', '--output', 'new/../in.json'])).toEqual(refused(goesUp('output path')));
    expect(await filesUnder(folder)).toEqual(before);
    expect(await pathExists(join(folder, 'new'))).toBe(false);
  });

  test("check's export naming the report it judges so", async () => {
    const folder = await createTemporaryFolder({ 'in.json': input, 'budgets.json': '{ "maxFailedExecutions": 0 }\n' }, 'disjoint');
    expect((await command(folder, ['in.json', '--output', 'q.json'])).exitCode).toBe(0);
    const before = await filesUnder(folder);

    expect(await command(folder, ['check', 'q.json', '--budgets', 'budgets.json', '--export', 'prometheus=new/../q.json'])).toEqual(
      refused(goesUp('prometheus export')),
    );
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('the history file, which would be read as absent and written over', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'disjoint');
    expect((await command(folder, ['in.json', '--output', 'q.json', '--history', 'h.jsonl'])).exitCode).toBe(0);
    const before = await filesUnder(folder);

    expect(await command(folder, ['in.json', '--output', 'q.json', '--history', 'new/../h.jsonl'])).toEqual(
      refused(goesUp('history file')),
    );
    expect(await filesUnder(folder)).toEqual(before);
  });
});
