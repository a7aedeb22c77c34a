import { Readable } from 'node:stream';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import { runCommand } from '../src/cli/runCommand.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import { DRAFT_MARKER } from '../src/suggest/specSource.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// `quality-evidence suggest`, in this process on files in memory: a report
// made by the command from a HAR file read with the contract, the drafts
// written into a folder at once, replaced only when suggest drafted them,
// and every way the command refuses, with its exit code and message.

const API = `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets:
    get:
      tags: [pets]
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [available, sold] } }
      responses:
        '200': { description: the pets }
  /store:
    get:
      tags: [store]
      responses:
        '200': { description: the stock }
`;

const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'hand', version: '1' },
    entries: [
      {
        startedDateTime: '2026-01-01T00:00:00Z',
        time: 10,
        request: { method: 'GET', url: 'http://api.test/pets?status=available', headers: [] },
        response: { status: 200, content: { mimeType: 'text/plain', text: '' } },
      },
    ],
  },
});

interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command in this process on a file system in memory: its exit code and what it printed. */
async function command(args: readonly string[], fileSystem: MemoryFileSystem): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const context: CommandContext = {
    args,
    env: {},
    fileSystem,
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    programName: 'quality-evidence',
  };
  try {
    return { exitCode: await runCommand(context), stdout, stderr };
  } catch (error) {
    return { exitCode: exitCodeFor(error), stdout, stderr: `${(error as Error).message}\n` };
  }
}

/** The API's document and a report of one call read from a HAR file with it: GET /pets?status=available, answered 200. */
async function project(): Promise<MemoryFileSystem> {
  const fileSystem = new MemoryFileSystem({ 'api.yaml': API, 'calls.har': HAR });
  const made = await command(['calls.har', '--openapi', 'api.yaml', '-o', 'out/quality-summary.json', '--formats', 'json'], fileSystem);
  expect([made.exitCode, made.stderr]).toEqual([0, '']);
  fileSystem.writes.length = 0;
  return fileSystem;
}

const SUGGEST = ['suggest', 'out/quality-summary.json', '--openapi', 'api.yaml', '--output', 'drafts'];

test('suggest writes one file per tag into the folder, made if missing, and says what it wrote', async () => {
  const fileSystem = await project();
  expect(await command(SUGGEST, fileSystem)).toEqual({
    exitCode: 0,
    stdout:
      'quality-evidence suggest: 2 files, 3 tests drafted in drafts\n' +
      '  drafts/pets.suggested.spec.ts: 2 tests\n' +
      '  drafts/store.suggested.spec.ts: 1 test\n',
    stderr: '',
  });
  expect(fileSystem.writes.filter((path) => !path.includes('.quality-evidence-'))).toEqual([]);
  const pets = fileSystem.files.get('drafts/pets.suggested.spec.ts') ?? '';
  expect(
    pets.startsWith(`${DRAFT_MARKER}\n// From the report "out/quality-summary.json" and the OpenAPI document "api.yaml", with --seed 1.`),
  ).toBe(true);
  // GET /pets sent status once (available) and never left it out: the omitted case, then sold.
  expect(pets.split('\n').filter((line) => line.startsWith('test'))).toEqual([
    "test('GET /pets without status — optional parameter never left out', async ({ request }) => {",
    "test('GET /pets?status=sold — enum value never sent', async ({ request }) => {",
  ]);
});

test('suggest run again replaces its own drafts with the same bytes; another seed is named in their header', async () => {
  const fileSystem = await project();
  expect((await command(SUGGEST, fileSystem)).exitCode).toBe(0);
  const first = new Map(fileSystem.files);
  expect((await command(SUGGEST, fileSystem)).exitCode).toBe(0);
  expect(new Map(fileSystem.files)).toEqual(first);
  expect((await command([...SUGGEST, '--seed', '7'], fileSystem)).exitCode).toBe(0);
  expect(fileSystem.files.get('drafts/store.suggested.spec.ts')?.split('\n')[1]).toBe(
    '// From the report "out/quality-summary.json" and the OpenAPI document "api.yaml", with --seed 7. Each test sends',
  );
});

test('suggest refuses to replace a file it did not draft, and writes none of the drafts (exit 73)', async () => {
  const fileSystem = await project();
  fileSystem.files.set('drafts/store.suggested.spec.ts', "import { test } from '@playwright/test';\n");
  expect(await command(SUGGEST, fileSystem)).toEqual({
    exitCode: 73,
    stdout: '',
    stderr:
      'cannot write the drafts: "drafts/store.suggested.spec.ts" is there and is no draft of suggest (its first line is not the ' +
      "drafts' header): suggest replaces only its own drafts; move the file, or name another --output\n",
  });
  expect(fileSystem.files.has('drafts/pets.suggested.spec.ts')).toBe(false);
  expect(fileSystem.files.get('drafts/store.suggested.spec.ts')).toBe("import { test } from '@playwright/test';\n");
  expect(fileSystem.writes).toEqual([]);
});

test('suggest with nothing to draft writes nothing and says so (exit 0)', async () => {
  const fileSystem = new MemoryFileSystem({
    'api.yaml': `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200': { description: the pets }
`,
    'calls.har': HAR,
  });
  expect(
    (await command(['calls.har', '--openapi', 'api.yaml', '-o', 'out/quality-summary.json', '--formats', 'json'], fileSystem)).exitCode,
  ).toBe(0);
  fileSystem.writes.length = 0;
  expect(await command(SUGGEST, fileSystem)).toEqual({
    exitCode: 0,
    stdout:
      'quality-evidence suggest: nothing to draft: the run met every condition of the 1 operation it could be drafted for; nothing was written to drafts\n',
    stderr: '',
  });
  expect(fileSystem.writes).toEqual([]);
});

test.describe('suggest refuses a command line it cannot act on, with exit 64 and what is wrong', () => {
  const help = 'see quality-evidence suggest --help';
  for (const [args, message] of [
    [['suggest', '--openapi', 'api.yaml', '--output', 'drafts'], `suggest takes one report file (got 0); ${help}`],
    [['suggest', 'a.json', 'b.json', '--openapi', 'api.yaml', '--output', 'drafts'], `suggest takes one report file (got 2); ${help}`],
    [
      ['suggest', 'out/quality-summary.json', '--output', 'drafts'],
      `suggest needs --openapi <file>, each OpenAPI document the report's run was made with; ${help}`,
    ],
    [
      ['suggest', 'out/quality-summary.json', '--openapi', 'api.yaml'],
      `suggest needs --output <folder>, where the drafted spec files go; ${help}`,
    ],
    [[...SUGGEST, '--seed=-1'], `--seed must be a whole number from 0 to 4294967295 (got "-1"); ${help}`],
    [[...SUGGEST, '--seed', '4294967296'], `--seed must be a whole number from 0 to 4294967295 (got "4294967296"); ${help}`],
    [[...SUGGEST, '--seed', '1.5'], `--seed must be a whole number from 0 to 4294967295 (got "1.5"); ${help}`],
    [[...SUGGEST, '--sed', '1'], `Unknown option '--sed'; ${help}`],
  ] as const) {
    test(args.slice(1).join(' '), async () => {
      const fileSystem = await project();
      expect(await command(args, fileSystem)).toEqual({ exitCode: 64, stdout: '', stderr: `${message}\n` });
      expect(fileSystem.writes).toEqual([]);
    });
  }
});

test.describe('suggest refuses inputs it cannot draft from, with the exit code of each', () => {
  const notOpenApi = '{ "swagger": "1.2" }';
  for (const [name, change, args, exitCode, message] of [
    [
      'a missing report',
      () => undefined,
      ['suggest', 'none.json', '--openapi', 'api.yaml', '--output', 'drafts'],
      66,
      'the report "none.json"',
    ],
    [
      'a missing document',
      () => undefined,
      ['suggest', 'out/quality-summary.json', '--openapi', 'none.yaml', '--output', 'drafts'],
      66,
      'the OpenAPI document "none.yaml"',
    ],
    [
      'a file that is no report',
      (fileSystem: MemoryFileSystem) => fileSystem.files.set('out/quality-summary.json', '{ "executions": [] }'),
      SUGGEST,
      65,
      'the report "out/quality-summary.json" is not a quality-summary.json written by quality-evidence',
    ],
    [
      'a document that is no OpenAPI document',
      (fileSystem: MemoryFileSystem) => fileSystem.files.set('api.yaml', notOpenApi),
      SUGGEST,
      78,
      '"api.yaml": is not an OpenAPI document this version reads',
    ],
    [
      'a report of a run made with other documents',
      (fileSystem: MemoryFileSystem) => fileSystem.files.set('api.yaml', API.replace('/store:', '/stock:')),
      SUGGEST,
      65,
      'the report "out/quality-summary.json" was not made with these OpenAPI documents (operation 2 is "GET /store" in its contract ' +
        'section and "GET /stock" in the documents): draft from a report of a run with the same documents',
    ],
  ] as const) {
    test(`${name}: exit ${exitCode}`, async () => {
      const fileSystem = await project();
      change(fileSystem);
      const outcome = await command(args, fileSystem);
      expect([outcome.exitCode, outcome.stdout]).toEqual([exitCode, '']);
      expect(outcome.stderr).toContain(message);
      expect(fileSystem.writes).toEqual([]);
    });
  }
});

test('suggest refuses a report of a run without a contract (exit 65), saying how to make one', async () => {
  const fileSystem = new MemoryFileSystem({ 'api.yaml': API, 'calls.har': HAR });
  expect((await command(['calls.har', '-o', 'out/quality-summary.json', '--formats', 'json'], fileSystem)).exitCode).toBe(0);
  expect(await command(SUGGEST, fileSystem)).toEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'the report "out/quality-summary.json" holds no contract section: its run had no OpenAPI document; run the suite with one ' +
      '(openapi, --openapi or QE_OPENAPI_PATH) and draft from that report\n',
  });
});

test('suggest --help says how it is used, and exits 0', async () => {
  const outcome = await command(['suggest', '--help'], new MemoryFileSystem());
  expect([outcome.exitCode, outcome.stdout.split('\n')[0]]).toEqual([
    0,
    'Usage: quality-evidence suggest <report.json> --openapi <file> --output <folder> [--seed <n>]',
  ]);
});
