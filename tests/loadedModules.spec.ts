import { expect, test } from './support/test.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCommand } from '../src/cli/runCommand.js';
import { groupDigits } from '../src/renderValue.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import { createModuleListing, packagesIn } from './support/loadedModules.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';

// What a run loads is what its settings ask for (docs/architecture.md, "What a run loads"): the modules each process
// loaded, listed by a loader hook (tests/support/loadedModules.ts), asserted by name, never a time
// (npm run bench:start measures the time).
test.describe.configure({ timeout: 120_000 });

const CONTRACT = join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml');
/** The packages that load only when a feature asks: the contract's (yaml, the reference parser, ajv) and the otlp export's. */
const HEAVY = /^(ajv|ajv-formats|yaml|@apidevtools\/json-schema-ref-parser|@opentelemetry\/.+)$/;

const heavyPackagesIn = (paths: readonly string[]) => [...packagesIn(paths)].filter((name) => HEAVY.test(name)).sort();
/** Our compiled modules among `paths`, from src/ or reporter/ on: `src/report/renderers/html.js`. */
const oursIn = (paths: readonly string[]) => paths.flatMap((path) => /\/\.build\/((?:src|reporter)\/.*)$/.exec(path)?.[1] ?? []).sort();

/** The modules the command loads over a one-record input with these flags. */
async function modulesOfCommand(flags: readonly string[], files: Readonly<Record<string, string>> = {}): Promise<string[]> {
  const folder = await createTemporaryFolder(
    { 'one-record.json': '[{ "endpoint": "GET /pets/1", "statusCode": 200, "responseTimeMs": 12 }]\n', ...files },
    'modules',
  );
  const listing = await createModuleListing(join(folder, 'listing'));
  const outcome = await runProgram('src/cli/main.js', {
    args: ['one-record.json', '--output', 'out/quality-summary.json', ...flags],
    cwd: folder,
    env: { NODE_OPTIONS: listing.nodeOptions },
    // The modules by their source path: the ES build's, which the bundle holds as they are.
    bundled: false,
  });
  expect(outcome.stderr).toBe('');
  const lists = [...(await listing.read()).values()];
  expect(lists).toHaveLength(1);
  return lists[0]!;
}

test('the command over one record with the default settings loads neither the contract stack (yaml, ajv) nor the OpenTelemetry SDK', async () => {
  const paths = await modulesOfCommand([]);

  expect(heavyPackagesIn(paths)).toStrictEqual([]);
  expect(oursIn(paths).filter((path) => path.startsWith('src/contract/load'))).toStrictEqual([]);
});

test('the command with --openapi loads the contract stack: yaml for the document, ajv for the bodies', async () => {
  const paths = await modulesOfCommand(['--openapi', CONTRACT]);

  expect(heavyPackagesIn(paths)).toStrictEqual(['ajv', 'ajv-formats', 'yaml']);
});

test('the command with --formats json loads neither the Markdown nor the HTML renderer, nor any report section', async () => {
  const paths = await modulesOfCommand(['--formats', 'json']);

  expect(oursIn(paths).filter((path) => /^src\/report\/(renderers\/(markdown|html)\.js|sections\/)/.test(path))).toStrictEqual([]);
});

/** The modules that hold the schemas of a report file and of a history's lines, and read them. */
const READING_SCHEMAS =
  /^src\/(report\/(\w+Schemas|qualityReport|reportFile)\.js|evaluation\/parseReport\.js|history\/(historyLineSchema|historyParse)\.js)$/;

test("the command writing every format and a history builds no schema of a report file or a history's lines; a named baseline loads the report's", async () => {
  const writing = await modulesOfCommand(['--history', 'history.jsonl']);
  const { reportText } = buildQualityReport([{ endpoint: 'GET /pets/1', statusCode: 200, responseTimeMs: 10 }], {
    environment: 'base',
    slowResponseThresholdMs: 750,
  });
  const comparing = await modulesOfCommand(['--baseline', 'baseline.json'], { 'baseline.json': reportText });

  expect(oursIn(writing).filter((path) => READING_SCHEMAS.test(path))).toStrictEqual([]);
  expect(oursIn(comparing).filter((path) => READING_SCHEMAS.test(path))).toStrictEqual([
    'src/evaluation/parseReport.js',
    'src/report/contractSchemas.js',
    'src/report/historySchemas.js',
    'src/report/qualityReport.js',
    'src/report/reportFile.js',
    'src/report/statisticsSchemas.js',
    'src/report/verdictSchemas.js',
  ]);
});

/** The modules only a subcommand, an export or the library's entry needs. */
const NOT_THE_COMMANDS = new RegExp(
  '^src/(index\\.js|cli/(check|merge|compare|comment|suggest|contractDiff|affected|dashboard)Command\\.js|' +
    'suggest/|dashboard/|review/|report/comment/|exports/(?!renderExport))',
);

test("the command loads no other subcommand's code, no export and not the library's entry", async () => {
  const paths = await modulesOfCommand([]);

  expect(oursIn(paths).filter((path) => NOT_THE_COMMANDS.test(path))).toStrictEqual([]);
});

/** Records of three endpoints, past the size from which an input is read in ranges on worker threads (16 MiB). */
function largeNdjson(): string {
  const lines: string[] = [];
  for (let index = 0; index < 240_000; index++)
    lines.push(JSON.stringify({ id: `call-${index}`, endpoint: `GET /pets/${index % 3}`, statusCode: 200, responseTimeMs: index % 997 }));
  return lines.join('\n') + '\n';
}

test('the worker threads reading a large input are the ones started before the program loaded; each loads only the reader', async () => {
  test.skip(availableParallelism() < 2, 'an input is read on worker threads only where there are two cores or more');
  const folder = await createTemporaryFolder({ 'large.ndjson': largeNdjson() }, 'modules');
  const listing = await createModuleListing(join(folder, 'listing'));
  const outcome = await runProgram('src/cli/main.js', {
    args: ['large.ndjson', '--output', 'out/quality-summary.json'],
    cwd: folder,
    env: { NODE_OPTIONS: listing.nodeOptions },
    bundled: false,
  });
  expect(outcome.stderr).toBe('');

  const threads = await listing.readWorkerThreads();
  // The workers started before the program loaded (src/cli/earlyWorkers.ts) are the ones that read: no other is started.
  expect(threads).toHaveLength(Math.min(8, availableParallelism()) - 1);
  for (const paths of threads) {
    expect([...packagesIn(paths)]).toStrictEqual([]);
    expect(
      oursIn(paths).filter((path) => /^src\/(report|exports|evaluation|history|contract|workflow\/(?!summariseRange))/.test(path)),
    ).toStrictEqual([]);
  }
});

test.describe('the reporter in a test worker', () => {
  const REQUEST_SPEC =
    "import { test, expect } from 'quality-evidence/test';\n" +
    "test('one call', async ({ request }) => { expect((await request.get('/pets/1')).status()).toBe(200); });\n";

  async function workerModules(reporterOptions: string, spec = REQUEST_SPEC): Promise<string[]> {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex"}'));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const project = await createPlaywrightProject({
        'playwright.config.ts':
          `export default { testDir: './tests', workers: 1, use: { baseURL: process.env.BASE_URL }, ` +
          `reporter: [['quality-evidence/reporter', { outputFile: 'out/q.json', quiet: true${reporterOptions} }]] };\n`,
        'tests/call.spec.ts': spec,
      });
      const listing = await createModuleListing(join(project, 'listing'));
      const outcome = await runPlaywright(project, ['test'], {
        BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        NODE_OPTIONS: listing.nodeOptions,
      });
      expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
      // The test worker: a process that ran Playwright's worker code and is not the runner (its command line, cli.js),
      // which loads some of that code too in older versions (1.45).
      const workers = [...(await listing.read()).values()].filter(
        (paths) => paths.some((path) => path.includes('/playwright/lib/worker/')) && !paths.some((path) => path.endsWith('/cli.js')),
      );
      expect(workers).toHaveLength(1);
      return workers[0]!;
    } finally {
      server.close();
    }
  }

  test('without a contract, a worker that records a call loads no contract stack, no renderer and not the library entry', async () => {
    const paths = await workerModules('');

    expect(heavyPackagesIn(paths)).toStrictEqual([]);
    expect(oursIn(paths).filter((path) => /^src\/(index\.js|contract\/|report\/renderers\/|workflow\/)/.test(path))).toStrictEqual([]);
  });

  test('a worker that records with recordExecution of quality-evidence/reporter loads the reporter class, not the run it opens at the end', async () => {
    const paths = await workerModules(
      '',
      "import { test } from '@playwright/test';\nimport { recordExecution } from 'quality-evidence/reporter';\n" +
        "test('one record', async () => { await recordExecution({ endpoint: 'GET /pets/1', statusCode: 200, responseTimeMs: 5 }); });\n",
    );

    expect(
      oursIn(paths).filter((path) => /^src\/(index\.js|workflow\/|run\/|report\/renderers\/(markdown|html)\.js)/.test(path)),
    ).toStrictEqual([]);
  });

  test("with the reporter's openapi option, the worker loads the contract stack to check each call's bodies", async () => {
    const paths = await workerModules(`, openapi: ${JSON.stringify(CONTRACT)}`);

    expect(heavyPackagesIn(paths)).toStrictEqual(['ajv', 'ajv-formats', 'yaml']);
  });
});

test('an input file named like a property every object has (constructor, toString) is summarised, not taken for a subcommand', async () => {
  const record = '[{ "endpoint": "GET /a", "statusCode": 200, "responseTimeMs": 5 }]';
  const summarise = async (input: string) => {
    let stdout = '';
    const exitCode = await runCommand({
      args: [input, '-o', 'out/q.json'],
      env: {},
      fileSystem: new MemoryFileSystem({ [input]: record }),
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      programName: 'quality-evidence',
    } satisfies CommandContext);
    // Piped, the command prints the report it wrote.
    return [exitCode, (JSON.parse(stdout) as { executionCount: number }).executionCount];
  };

  expect([await summarise('constructor'), await summarise('toString')]).toStrictEqual([
    [0, 1],
    [0, 1],
  ]);
});

test("the command writing the JSON, Markdown and HTML reports formats every number by hand: ICU's locale data is never loaded", async () => {
  const paths = await modulesOfCommand([]);

  expect(paths.filter((line) => line.startsWith('intl:'))).toStrictEqual([]);
});

test("groupDigits writes a whole number as en-US's toLocaleString does, without ICU", () => {
  const values = [0, 7, 999, 1_000, 65_536, 999_999, 1_000_000, 86_400_000, 123_456_789_012, -1_234];

  expect(values.map(groupDigits)).toStrictEqual(values.map((value) => value.toLocaleString('en-US')));
});
