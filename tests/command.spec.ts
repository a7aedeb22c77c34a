import { expect, test } from './support/test.js';
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPlaywrightProject } from './support/playwrightProject.js';
import { childEnvironment, pathExists, type ProgramOutcome } from './support/runProgram.js';
import { reportFrom } from './support/reports.js';

// The command as a user runs it: the packed package installed in a
// temporary project, its `bin` linked in node_modules/.bin. The project is
// made once (npm pack: a few seconds idle, far more loaded) and each test
// runs the command a few times (1 to 4 s measured loaded): 60 s each.
test.describe.configure({ timeout: 60_000 });

const record = (endpoint: string, statusCode: number, responseTimeMs: number) => ({ statusCode, endpoint, responseTimeMs });
const files = {
  'shard-1.json': JSON.stringify({ executions: [record('GET /orders', 200, 120), record('POST /orders', 500, 900)] }),
  'shard-2.ndjson': `${JSON.stringify(record('GET /orders', 200, 80))}\n${JSON.stringify(record('GET /invoices/7', 404, 30))}\n`,
  'bad.ndjson': `\n${JSON.stringify(record('GET /a', 99, 1))}\n`,
  'session.har': JSON.stringify({
    log: {
      entries: [
        {
          time: 40,
          request: { method: 'GET', url: 'http://127.0.0.1:3000/booking/17?page=2' },
          response: { status: 200, content: { mimeType: 'application/json' } },
        },
        { time: 3, request: { method: 'DELETE', url: 'http://127.0.0.1:3000/booking/18' }, response: { status: 0 } },
        {
          time: 2,
          request: { method: 'GET', url: 'http://127.0.0.1:3000/app.js' },
          response: { status: 200, content: { mimeType: 'text/javascript' } },
          _resourceType: 'script',
        },
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
    const child = spawn(join(project, 'node_modules/.bin/quality-evidence'), args, { cwd: project, env: childEnvironment(env) });
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
  const { stdout } = await promisify(execFile)(
    'npx',
    ['--no', 'quality-evidence', 'shard-1.json', 'shard-2.ndjson', 'session.har', '--output', 'out/q.json'],
    { cwd: project },
  );

  // stdout is not a terminal here: it gets the report itself, byte for byte the file.
  expect(stdout).toBe(await readFile(join(project, 'out/q.json'), 'utf8'));
  const report = reportFrom(stdout);
  expect(report.endpoints.map(({ endpoint, executionCount }) => [endpoint, executionCount])).toStrictEqual([
    ['DELETE /booking/:id', 1],
    ['GET /booking/:id', 1],
    ['GET /invoices/7', 1],
    ['GET /orders', 2],
    ['POST /orders', 1],
  ]);
  expect(report).toMatchObject({
    schemaVersion: 2,
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
  const outcome = await command(
    ['shard-1.json', '--environment', 'from-flag', '--slow-response-threshold-ms', '1000', '--json', '-o', 'out/flags.json'],
    {
      QE_ENVIRONMENT: 'from-variable',
      QE_SLOW_RESPONSE_THRESHOLD_MS: '10',
      QE_OUTPUT_PATH: 'out/variable.json',
    },
  );

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(reportFrom(outcome.stdout)).toMatchObject({ environment: 'from-flag', slowResponseThresholdMs: 1000, slowExecutionCount: 0 });
  expect(await pathExists(join(project, 'out/variable.json'))).toBe(false);
});

test('with no input named, QE_INPUT_PATH names it; --quiet prints nothing', async () => {
  const outcome = await command(['--quiet', '-o', 'out/env.json'], { QE_INPUT_PATH: 'shard-2.ndjson' });

  expect(outcome).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  expect(reportFrom(await readFile(join(project, 'out/env.json'), 'utf8'))).toMatchObject({ executionCount: 2 });
});

test('- reads standard input', async () => {
  const outcome = await command(['-', '--json', '-o', 'out/stdin.json'], {}, files['shard-2.ndjson']);

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(reportFrom(outcome.stdout)).toMatchObject({ executionCount: 2, failureCountByEndpoint: { 'GET /invoices/7': 1 } });
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
  [
    'an unknown flag is a usage error naming it',
    ['shard-1.json', '--bogus'],
    {},
    64,
    "quality-evidence: Unknown option '--bogus'; see quality-evidence --help\n",
  ],
  [
    'no input at all is a usage error',
    [],
    {},
    64,
    'quality-evidence: no input: name one or more files (or - for standard input), or set QE_INPUT_PATH; see quality-evidence --help\n',
  ],
  [
    'a bad --input-format is a usage error',
    ['shard-1.json', '--input-format', 'xml'],
    {},
    64,
    'quality-evidence: --input-format must be one of json, ndjson, har; see quality-evidence --help\n',
  ],
  [
    'a missing input is exit 66',
    ['missing.json'],
    {},
    66,
    'quality-evidence: cannot read the input file "missing.json": no such file or directory (ENOENT)\n',
  ],
  [
    'a bad threshold flag is a configuration error that names the flag and not its value',
    ['shard-1.json', '--slow-response-threshold-ms', 'sk-secret'],
    {},
    78,
    'quality-evidence: invalid configuration:\n  - --slow-response-threshold-ms: must be a whole non-negative number of milliseconds written in digits\n',
  ],
  [
    'an unwritable report is exit 73',
    ['shard-1.json', '-o', 'shard-1.json/q.json'],
    {},
    73,
    'quality-evidence: cannot write the report: cannot create a folder on the path: a parent of the path is not a folder (ENOTDIR)\n',
  ],
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
    stderr:
      'quality-evidence: 1 of 3 records is invalid:\n  - line 2 of bad.ndjson, statusCode: must be an integer from 100 to 599; found 99 (a number)\n',
  });
  expect(await pathExists(join(project, 'out/bad.json'))).toBe(false);
});

test('--config names a settings file; its keys give what no flag or variable gives, and a flag wins over it', async () => {
  const settings = join(project, 'ci-settings.json');
  await writeFile(settings, JSON.stringify({ environment: 'from-file', slowResponseThresholdMs: 100, outputFile: 'out/from-file.json' }));

  const fromFile = await command(['shard-1.json', '--config', 'ci-settings.json', '--json']);
  const withFlag = await command([
    'shard-1.json',
    '--config',
    'ci-settings.json',
    '--json',
    '--environment',
    'from-flag',
    '-o',
    'out/from-flag.json',
  ]);

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

test.describe('budgets, check and the baseline', () => {
  // shard-1.json: GET /orders 200 in 120 ms, POST /orders 500 in 900 ms.
  const budgetsFile = (name: string, budgets: object): Promise<void> => writeFile(join(project, name), JSON.stringify(budgets));

  test('budgets that hold: exit 0, the verdict in the report', async () => {
    await budgetsFile('hold.json', { minExecutions: 2, maxFailedExecutions: 1, responseTimeMs: { p95: 900 } });
    const outcome = await command(['shard-1.json', '--budgets', 'hold.json', '-o', 'out/hold.json']);

    expect([outcome.exitCode, outcome.stderr]).toStrictEqual([0, '']);
    const report = reportFrom(await readFile(join(project, 'out/hold.json'), 'utf8'));
    expect(report.budgets).toStrictEqual({
      passed: true,
      results: [
        { budget: 'minExecutions', limit: 2, actual: 2, passed: true },
        { budget: 'maxFailedExecutions', limit: 1, actual: 1, passed: true },
        { budget: 'responseTimeMs.p95', limit: 900, actual: 900, passed: true },
      ],
    });
  });

  test('a breached budget (QE_BUDGETS_PATH): exit 1, the report written all the same, each breach on stderr', async () => {
    await budgetsFile('breach.json', {
      maxFailedExecutions: 0,
      endpoints: { 'GET /orders': { responseTimeMs: { p95: 100 } }, 'GET /health': { minExecutions: 1 } },
    });
    const outcome = await command(['shard-1.json', '-o', 'out/breach.json'], { QE_BUDGETS_PATH: 'breach.json' });

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toBe(await readFile(join(project, 'out/breach.json'), 'utf8'));
    // GET /health did not run: its budget is named in a warning, then breached with the others.
    expect(outcome.stderr).toBe(
      'quality-evidence: warning: the budgets file "breach.json" names the endpoint "GET /health", which matches no endpoint of this run: ' +
        'its limits measure nothing and breach (a key is an endpoint label as the report writes it, where a :name or ' +
        '{name} segment stands for any parameter)\n' +
        'quality-evidence: 3 of 3 budgets breached:\n' +
        '  FAIL maxFailedExecutions: 1 (limit ≤ 0)\n' +
        '  FAIL minExecutions of GET /health: no data (limit ≥ 1)\n' +
        '  FAIL responseTimeMs.p95 of GET /orders: 120 ms (limit ≤ 100 ms)\n',
    );
    expect(reportFrom(await readFile(join(project, 'out/breach.json'), 'utf8')).budgets?.passed).toBe(false);
  });

  test('check judges an existing report: one line per budget, exit 1 on a breach, 0 when all hold', async () => {
    await command(['shard-1.json', '-o', 'out/to-check.json']);
    await budgetsFile('check-hold.json', { maxFailedExecutions: 1 });
    await budgetsFile('check-breach.json', { maxFailedExecutions: 0, minExecutions: 2 });

    expect(await command(['check', 'out/to-check.json', '--budgets', 'check-hold.json'])).toStrictEqual({
      exitCode: 0,
      stdout: 'pass maxFailedExecutions: 1 (limit ≤ 1)\nquality-evidence check: the budget holds\n',
      stderr: '',
    });
    expect(await command(['check', 'out/to-check.json', '--budgets', 'check-breach.json'])).toStrictEqual({
      exitCode: 1,
      stdout:
        'pass minExecutions: 2 (limit ≥ 2)\nFAIL maxFailedExecutions: 1 (limit ≤ 0)\nquality-evidence check: 1 of 2 budgets breached\n',
      stderr: '',
    });
  });

  test('check with no --budgets uses the verdict recorded in the report', async () => {
    await budgetsFile('recorded.json', { maxFailedExecutions: 0 });
    await command(['shard-1.json', '--budgets', 'recorded.json', '-o', 'out/recorded.json']);

    const outcome = await command(['check', 'out/recorded.json']);
    expect([outcome.exitCode, outcome.stdout]).toStrictEqual([
      1,
      'FAIL maxFailedExecutions: 1 (limit ≤ 0)\nquality-evidence check: 1 of 1 budget breached\n',
    ]);
  });

  test('a baseline gives the comparison; a p95 up 50% on one sample each is too few to judge, listed, and holds maxP95IncreasePercent', async () => {
    await command(['shard-2.ndjson', '-o', 'out/main.json']);
    await budgetsFile('increase.json', { maxP95IncreasePercent: 10 });
    const outcome = await command(['shard-1.json', '--baseline', 'out/main.json', '--budgets', 'increase.json', '-o', 'out/branch.json']);

    expect(outcome.exitCode).toBe(0);
    const report = reportFrom(await readFile(join(project, 'out/branch.json'), 'utf8'));
    expect(report.baseline).toMatchObject({
      newlyFailingEndpoints: ['POST /orders'],
      recoveredEndpoints: ['GET /invoices/7'],
      newEndpoints: ['POST /orders'],
      missingEndpoints: ['GET /invoices/7'],
      latencyVerdictCounts: { slower: 0, faster: 0, noChange: 0, tooFewSamples: 2 },
    });
    expect(report.budgets?.results).toStrictEqual([
      { budget: 'maxP95IncreasePercent', endpoint: 'GET /orders', limit: 10, actual: 50, passed: true, latencyVerdict: 'tooFewSamples' },
      { budget: 'maxP95IncreasePercent', endpoint: 'POST /orders', limit: 10, actual: null, passed: true, latencyVerdict: 'tooFewSamples' },
    ]);
  });

  test('a real slowdown (every one of 30 calls 50% slower) breaches maxP95IncreasePercent, exit 1, and the closing line names the comparison', async () => {
    const calls = (scale: number) =>
      JSON.stringify({
        executions: Array.from({ length: 30 }, (_, index) => record('GET /orders', 200, Math.round(scale * (80 + index)))),
      });
    await writeFile(join(project, 'main-30.json'), calls(1));
    await writeFile(join(project, 'branch-30.json'), calls(1.5));
    await command(['main-30.json', '-o', 'out/main-30.json']);
    await budgetsFile('increase-30.json', { maxP95IncreasePercent: 10 });
    const outcome = await command([
      'branch-30.json',
      '--baseline',
      'out/main-30.json',
      '--budgets',
      'increase-30.json',
      '-o',
      'out/branch-30.json',
    ]);

    expect(outcome.exitCode).toBe(1);
    const report = reportFrom(await readFile(join(project, 'out/branch-30.json'), 'utf8'));
    expect(report.budgets?.results).toStrictEqual([
      { budget: 'maxP95IncreasePercent', endpoint: 'GET /orders', limit: 10, actual: 50, passed: false, latencyVerdict: 'slower' },
    ]);
    expect(outcome.stderr).toContain('FAIL maxP95IncreasePercent of GET /orders: +50% (limit ≤ +10%)');
    // check compares as the run did, at the level it is given; a level that is no probability is refused.
    const checked = await command([
      'check',
      'out/branch-30.json',
      '--budgets',
      'increase-30.json',
      '--baseline',
      'out/main-30.json',
      '--significance-level',
      '0.001',
    ]);
    expect([checked.exitCode, checked.stdout]).toStrictEqual([
      1,
      'FAIL maxP95IncreasePercent of GET /orders: +50% (limit ≤ +10%)\nquality-evidence check: 1 of 1 budget breached\n',
    ]);
    const refused = await command([
      'check',
      'out/branch-30.json',
      '--budgets',
      'increase-30.json',
      '--baseline',
      'out/main-30.json',
      '--significance-level',
      '2',
    ]);
    expect([refused.exitCode, refused.stderr]).toStrictEqual([
      78,
      'quality-evidence: invalid configuration:\n  - --significance-level: must be a probability above 0 and at most 0.5, such as 0.01\n',
    ]);
  });

  const report = JSON.stringify({
    schemaVersion: 1,
    environment: 'ci',
    slowResponseThresholdMs: 750,
    executionCount: 0,
    failedExecutionCount: 0,
    slowExecutionCount: 0,
    failureCountByEndpoint: {},
    slowEndpoints: [],
    noResponseCount: 0,
    noResponseEndpoints: [],
  });
  for (const [name, args, given, env, exitCode, message] of [
    [
      'a missing budgets file is exit 66',
      ['shard-1.json', '--budgets', 'nope.json'],
      {},
      {},
      66,
      'quality-evidence: cannot read the budgets file "nope.json": no such file or directory (ENOENT)\n',
    ],
    [
      'a missing baseline is exit 66',
      ['shard-1.json', '--baseline', 'nope.json'],
      {},
      {},
      66,
      'quality-evidence: cannot read the baseline report "nope.json": no such file or directory (ENOENT)\n',
    ],
    [
      'a baseline that is not JSON is exit 65',
      ['shard-1.json', '--baseline', 'shard-2.ndjson'],
      {},
      {},
      65,
      'quality-evidence: the baseline report "shard-2.ndjson" is not well-formed JSON at line 2, column 1',
    ],
    [
      'a baseline that is not a report of this tool is exit 65',
      ['shard-1.json', '--baseline', 'results.json'],
      { 'results.json': '{ "stats": {} }' },
      {},
      65,
      'quality-evidence: the baseline report "results.json" is not a quality-summary.json written by quality-evidence',
    ],
    [
      'a baseline of another schemaVersion is exit 65',
      ['shard-1.json', '--baseline', 'v3.json'],
      { 'v3.json': '{ "schemaVersion": 3 }' },
      {},
      65,
      'quality-evidence: the baseline report "v3.json" is a report of schemaVersion 3; this version of quality-evidence reads schemaVersion 1 and 2\n',
    ],
    [
      'maxP95IncreasePercent without a baseline is exit 78',
      ['shard-1.json'],
      { 'p95-increase.json': '{ "maxP95IncreasePercent": 10 }' },
      { QE_BUDGETS_PATH: 'p95-increase.json' },
      78,
      'quality-evidence: invalid configuration:\n  - maxP95IncreasePercent in "p95-increase.json": ' +
        'compares with a baseline report: name one with --baseline, QE_BASELINE_PATH or the baselinePath option\n',
    ],
    [
      'a bad budgets file is exit 78',
      ['shard-1.json', '--budgets', 'bad-budgets.json'],
      { 'bad-budgets.json': '{ "maxFailureRate": 2 }' },
      {},
      78,
      'maxFailureRate in "bad-budgets.json": must be a rate from 0 to 1',
    ],
    [
      'check with no report is exit 64',
      ['check'],
      {},
      {},
      64,
      'quality-evidence: check takes one report file (got 0); see quality-evidence check --help\n',
    ],
    [
      'check of a missing report is exit 66',
      ['check', 'out/none.json'],
      {},
      {},
      66,
      'quality-evidence: cannot read the report "out/none.json": no such file or directory (ENOENT)\n',
    ],
    [
      'check of a file that is not a report is exit 65',
      ['check', 'shard-1.json'],
      {},
      {},
      65,
      'quality-evidence: the report "shard-1.json" is not a quality-summary.json written by quality-evidence',
    ],
    [
      'check of a report with no verdict and no --budgets is exit 64',
      ['check', 'plain-report.json'],
      { 'plain-report.json': report },
      {},
      64,
      'the report holds no budget verdict: name a budgets file with --budgets',
    ],
    [
      'check with an unknown flag is exit 64',
      ['check', 'plain-report.json', '--budget', 'x.json'],
      { 'plain-report.json': report },
      {},
      64,
      "Unknown option '--budget'; see quality-evidence check --help",
    ],
  ] as const) {
    test(name, async () => {
      for (const [file, text] of Object.entries(given)) await writeFile(join(project, file), text);
      const outcome = await command([...args], env);
      expect(outcome.exitCode, outcome.stderr).toBe(exitCode);
      expect(outcome.stderr).toContain(message);
    });
  }
});
