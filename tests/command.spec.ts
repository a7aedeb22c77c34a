import { expect, test } from '@playwright/test';
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { qualityReportSchema } from '../src/index.js';
import { createPlaywrightProject } from './support/playwrightProject.js';
import { pathExists, type ProgramOutcome } from './support/runProgram.js';

// The command as a user runs it: the packed package installed in a
// temporary project, its `bin` linked in node_modules/.bin.
test.describe.configure({ timeout: 60_000 });

const record = (endpoint: string, statusCode: number, responseTimeMs: number) => ({ statusCode, endpoint, responseTimeMs });
const files = {
  'shard-1.json': JSON.stringify({ executions: [record('GET /orders', 200, 120), record('POST /orders', 500, 900)] }),
  'shard-2.ndjson': `${JSON.stringify(record('GET /orders', 200, 80))}\n${JSON.stringify(record('GET /invoices/7', 404, 30))}\n`,
  'bad.ndjson': `\n${JSON.stringify(record('GET /a', 99, 1))}\n`,
  'session.har': JSON.stringify({
    log: {
      entries: [
        { time: 40, request: { method: 'GET', url: 'http://127.0.0.1:3000/booking/17?page=2' }, response: { status: 200, content: { mimeType: 'application/json' } } },
        { time: 3, request: { method: 'DELETE', url: 'http://127.0.0.1:3000/booking/18' }, response: { status: 0 } },
        { time: 2, request: { method: 'GET', url: 'http://127.0.0.1:3000/app.js' }, response: { status: 200, content: { mimeType: 'text/javascript' } }, _resourceType: 'script' },
      ],
    },
  }),
};

let project: string;
test.beforeAll(async () => {
  project = await createPlaywrightProject(files);
});

/** Runs the installed command with exactly the given environment plus PATH, and optional standard input. */
function command(args: readonly string[], env: Record<string, string> = {}, stdin?: string): Promise<ProgramOutcome> {
  return new Promise((done) => {
    const child = spawn(join(project, 'node_modules/.bin/quality-evidence'), args, { cwd: project, env: { PATH: process.env['PATH'] ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      done({ exitCode: code ?? -1, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}

test('npx quality-evidence over a JSON shard, an NDJSON shard and a HAR file writes one report', async () => {
  const { stdout } = await promisify(execFile)('npx', ['--no', 'quality-evidence', 'shard-1.json', 'shard-2.ndjson', 'session.har', '--output', 'out/q.json'], { cwd: project });

  expect(stdout).toBe('quality-evidence: 6 executions, 3 failed, 1 slow, 1 with no response, 1 asset left out; report written to out/q.json\n');
  const report = qualityReportSchema.parse(JSON.parse(await readFile(join(project, 'out/q.json'), 'utf8')));
  expect(report.endpoints.map(({ endpoint, executionCount }) => [endpoint, executionCount])).toStrictEqual([
    ['DELETE /booking/:id', 1],
    ['GET /booking/:id', 1],
    ['GET /invoices/7', 1],
    ['GET /orders', 2],
    ['POST /orders', 1],
  ]);
  expect(report).toMatchObject({
    schemaVersion: 1,
    environment: 'local',
    slowResponseThresholdMs: 750,
    executionCount: 6,
    failedExecutionCount: 3,
    slowExecutionCount: 1,
    failureCountByEndpoint: { 'DELETE /booking/:id': 1, 'GET /invoices/7': 1, 'POST /orders': 1 },
    slowEndpoints: ['POST /orders'],
    noResponseCount: 1,
    noResponseEndpoints: ['DELETE /booking/:id'],
    skippedAssetCount: 1,
  });
});

test('flags win over variables', async () => {
  const outcome = await command(['shard-1.json', '--environment', 'from-flag', '--slow-response-threshold-ms', '1000', '--json', '-o', 'out/flags.json'], {
    QE_ENVIRONMENT: 'from-variable',
    QE_SLOW_RESPONSE_THRESHOLD_MS: '10',
    QE_OUTPUT_PATH: 'out/variable.json',
  });

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(JSON.parse(outcome.stdout)).toMatchObject({ environment: 'from-flag', slowResponseThresholdMs: 1000, slowExecutionCount: 0 });
  expect(await pathExists(join(project, 'out/variable.json'))).toBe(false);
});

test('with no input named, QE_INPUT_PATH names it; --quiet prints nothing', async () => {
  const outcome = await command(['--quiet', '-o', 'out/env.json'], { QE_INPUT_PATH: 'shard-2.ndjson' });

  expect(outcome).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  expect(JSON.parse(await readFile(join(project, 'out/env.json'), 'utf8'))).toMatchObject({ executionCount: 2 });
});

test('- reads standard input', async () => {
  const outcome = await command(['-', '--json', '-o', 'out/stdin.json'], {}, files['shard-2.ndjson']);

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(JSON.parse(outcome.stdout)).toMatchObject({ executionCount: 2, failureCountByEndpoint: { 'GET /invoices/7': 1 } });
});

test('--help prints the usage with examples; --version prints the version', async () => {
  const help = await command(['--help']);
  const version = await command(['--version']);

  expect(help.exitCode).toBe(0);
  expect(help.stdout).toContain('Usage: quality-evidence [options] <input...>');
  expect(help.stdout).toContain('npx quality-evidence shard-1.json shard-2.ndjson session.har');
  expect(version).toEqual({ exitCode: 0, stdout: '0.1.0\n', stderr: '' });
});

const failures: readonly (readonly [string, readonly string[], Record<string, string>, number, string])[] = [
  ['an unknown flag is a usage error naming it', ['shard-1.json', '--bogus'], {}, 64, "quality-evidence: Unknown option '--bogus'; see quality-evidence --help\n"],
  ['no input at all is a usage error', [], {}, 64, 'quality-evidence: no input: name one or more files (or - for standard input), or set QE_INPUT_PATH; see quality-evidence --help\n'],
  ['a bad --input-format is a usage error', ['shard-1.json', '--input-format', 'xml'], {}, 64, 'quality-evidence: --input-format must be one of json, ndjson, har; see quality-evidence --help\n'],
  ['a missing input is exit 66', ['missing.json'], {}, 66, 'quality-evidence: cannot read the input file "missing.json": no such file or directory (ENOENT)\n'],
  [
    'a bad threshold flag is a configuration error that names the flag and not its value',
    ['shard-1.json', '--slow-response-threshold-ms', 'sk-secret'],
    {},
    78,
    'quality-evidence: invalid configuration:\n  - --slow-response-threshold-ms: must be a whole non-negative number of milliseconds written in digits\n',
  ],
  ['an unwritable report is exit 73', ['shard-1.json', '-o', 'shard-1.json/q.json'], {}, 73, 'quality-evidence: cannot write the report: a file is in the way of a folder on the path (EEXIST)\n'],
];
for (const [name, args, env, exitCode, stderr] of failures) {
  test(name, async () => {
    expect(await command(args, env)).toEqual({ exitCode, stdout: '', stderr });
  });
}

test('invalid records are exit 65, named by input and line, and no report is written', async () => {
  const outcome = await command(['shard-1.json', 'bad.ndjson', '-o', 'out/bad.json']);

  expect(outcome).toEqual({
    exitCode: 65,
    stdout: '',
    stderr: 'quality-evidence: 1 of 3 records is invalid:\n  - line 2 of bad.ndjson, statusCode: must be an integer from 100 to 599; found 99 (a number)\n',
  });
  expect(await pathExists(join(project, 'out/bad.json'))).toBe(false);
});

test('--config names a settings file; its keys give what no flag or variable gives, and a flag wins over it', async () => {
  const settings = join(project, 'ci-settings.json');
  await writeFile(settings, JSON.stringify({ environment: 'from-file', slowResponseThresholdMs: 100, outputFile: 'out/from-file.json' }));

  const fromFile = await command(['shard-1.json', '--config', 'ci-settings.json', '--json']);
  const withFlag = await command(['shard-1.json', '--config', 'ci-settings.json', '--json', '--environment', 'from-flag', '-o', 'out/from-flag.json']);

  expect(JSON.parse(fromFile.stdout)).toMatchObject({ environment: 'from-file', slowResponseThresholdMs: 100, slowExecutionCount: 2 });
  expect(await pathExists(join(project, 'out/from-file.json'))).toBe(true);
  expect(JSON.parse(withFlag.stdout)).toMatchObject({ environment: 'from-flag', slowResponseThresholdMs: 100 });
});

test('a --config file that is missing is exit 66', async () => {
  expect(await command(['shard-1.json', '--config', 'nope.json'])).toEqual({
    exitCode: 66,
    stdout: '',
    stderr: 'quality-evidence: cannot read the settings file "nope.json": no such file or directory (ENOENT)\n',
  });
});
