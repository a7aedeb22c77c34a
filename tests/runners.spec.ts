import { expect, test } from './support/test.js';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTemporaryFolder, pathExists, repositoryRoot, runProgram } from './support/runProgram.js';
import { reportFrom } from './support/reports.js';

// A value no output may ever contain, wherever it is put in the environment.
const fakeToken = 'qe-fake-token-5d1c2b9e';

const validInput = JSON.stringify({
  executions: [
    { statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 100 },
    { statusCode: 404, endpoint: 'get  /orders/42', responseTimeMs: 900 },
  ],
});

test.describe('npm start (the illustrative run)', () => {
  test('prints the SPEC sample summary and writes the same bytes to .build/quality-summary.json', async () => {
    const outcome = await runProgram('scripts/start.js', { env: { API_TOKEN: fakeToken } });

    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toBe('');
    const report = reportFrom(outcome.stdout);
    expect(report.slowestExecutions.map(({ id, location }) => [id, location])).toStrictEqual([
      ['exec-003', 'executions[2] of fixtures/quality-executions.json'],
      ['exec-002', 'executions[1] of fixtures/quality-executions.json'],
      ['exec-001', 'executions[0] of fixtures/quality-executions.json'],
    ]);
    expect(report).toMatchObject({
      schemaVersion: 2,
      environment: 'local-example',
      slowResponseThresholdMs: 750,
      executionCount: 3,
      failedExecutionCount: 1,
      slowExecutionCount: 2,
      failureCountByEndpoint: { 'POST /orders': 1 },
      slowEndpoints: ['GET /invoices', 'POST /orders'],
      noResponseCount: 0,
      noResponseEndpoints: [],
    });
    expect(await readFile(join(repositoryRoot, '.build/quality-summary.json'), 'utf8')).toBe(outcome.stdout);
    expect(outcome.stdout).not.toContain(fakeToken);
  });

  test('ignores the QE_* variables of the real environment', async () => {
    const outcome = await runProgram('scripts/start.js', { env: { QE_ENVIRONMENT: fakeToken, QE_SLOW_RESPONSE_THRESHOLD_MS: 'slow' } });

    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toContain('"environment": "local-example"');
    expect(outcome.stdout).not.toContain(fakeToken);
  });
});

test.describe('npm run start:environment', () => {
  test('reads QE_INPUT_PATH, writes QE_OUTPUT_PATH and prints the report', async () => {
    const folder = await createTemporaryFolder({ 'executions.json': validInput });
    const outputPath = join(folder, 'nested/out/summary.json');

    const outcome = await runProgram('scripts/startEnvironment.js', {
      env: {
        QE_ENVIRONMENT: ' staging ',
        QE_INPUT_PATH: join(folder, 'executions.json'),
        QE_OUTPUT_PATH: outputPath,
        QE_SLOW_RESPONSE_THRESHOLD_MS: '800',
        API_TOKEN: fakeToken,
      },
    });

    expect(outcome).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `{
  "schemaVersion": 2,
  "environment": "staging",
  "slowResponseThresholdMs": 800,
  "expectedStatuses": "100-399",
  "executionCount": 2,
  "failedExecutionCount": 1,
  "slowExecutionCount": 1,
  "failureCountByEndpoint": {
    "GET /orders/42": 1
  },
  "slowEndpoints": [
    "GET /orders/42"
  ],
  "noResponseCount": 0,
  "noResponseEndpoints": [],
  "serverErrorCount": 0,
  "expectedErrorCount": 0,
  "statusCodes": {
    "200": 1,
    "404": 1
  },
  "responseTimeMs": {
    "min": 100,
    "mean": 500,
    "p50": 100,
    "p90": 900,
    "p95": 900,
    "p99": 900,
    "max": 900,
    "source": "exact"
  },
  "endpoints": [
    {
      "endpoint": "GET /orders",
      "executionCount": 1,
      "failedExecutionCount": 0,
      "expectedErrorCount": 0,
      "slowExecutionCount": 0,
      "noResponseCount": 0,
      "serverErrorCount": 0,
      "statusCodes": {
        "200": 1
      },
      "responseTimeMs": {
        "min": 100,
        "mean": 100,
        "p50": 100,
        "p90": 100,
        "p95": 100,
        "p99": 100,
        "max": 100,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[231, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 200,
          "executionCount": 1,
          "totalMs": 100
        }
      ]
    },
    {
      "endpoint": "GET /orders/42",
      "executionCount": 1,
      "failedExecutionCount": 1,
      "expectedErrorCount": 0,
      "slowExecutionCount": 1,
      "noResponseCount": 0,
      "serverErrorCount": 0,
      "statusCodes": {
        "404": 1
      },
      "responseTimeMs": {
        "min": 900,
        "mean": 900,
        "p50": 900,
        "p90": 900,
        "p95": 900,
        "p99": 900,
        "max": 900,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[341, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 404,
          "executionCount": 1,
          "totalMs": 900
        }
      ],
      "failedExecutions": [
        {
          "method": "GET",
          "path": "/orders/42",
          "statusCode": 404,
          "responseTimeMs": 900,
          "location": "executions[1] of ${join(folder, 'executions.json')}"
        }
      ]
    }
  ],
  "slowestExecutions": [
    {
      "endpoint": "GET /orders/42",
      "statusCode": 404,
      "responseTimeMs": 900,
      "location": "executions[1] of ${join(folder, 'executions.json')}"
    },
    {
      "endpoint": "GET /orders",
      "statusCode": 200,
      "responseTimeMs": 100,
      "location": "executions[0] of ${join(folder, 'executions.json')}"
    }
  ]
}
`,
    });
    expect(await readFile(outputPath, 'utf8')).toBe(outcome.stdout);
  });

  test('writes to .build/quality-summary.json under the working directory when QE_OUTPUT_PATH is whitespace only', async () => {
    const folder = await createTemporaryFolder({ 'executions.json': validInput });

    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: 'executions.json', QE_OUTPUT_PATH: '  ' },
    });

    expect(outcome.exitCode).toBe(0);
    expect(await readFile(join(folder, '.build/quality-summary.json'), 'utf8')).toBe(outcome.stdout);
  });

  const failures: readonly {
    name: string;
    files: Record<string, string>;
    env: (folder: string) => Record<string, string>;
    exitCode: number;
    stderr: string;
  }[] = [
    {
      name: 'QE_ENVIRONMENT and QE_INPUT_PATH missing',
      files: {},
      env: () => ({ QE_SLOW_RESPONSE_THRESHOLD_MS: ' ' }),
      exitCode: 78,
      stderr:
        'quality-evidence start:environment: invalid configuration:\n' +
        '  - QE_ENVIRONMENT: is required (the name of the target environment)\n' +
        '  - QE_INPUT_PATH: is required (the path of the input file of execution records)\n',
    },
    {
      name: 'a non-numeric threshold holding a secret',
      files: { 'executions.json': validInput },
      env: (folder) => ({
        QE_ENVIRONMENT: 'staging',
        QE_INPUT_PATH: join(folder, 'executions.json'),
        QE_SLOW_RESPONSE_THRESHOLD_MS: fakeToken,
      }),
      exitCode: 78,
      stderr:
        'quality-evidence start:environment: invalid configuration:\n' +
        '  - QE_SLOW_RESPONSE_THRESHOLD_MS: must be a whole non-negative number of milliseconds written in digits\n',
    },
    {
      name: 'a missing input file',
      files: {},
      env: () => ({ QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: 'does-not-exist.json' }),
      exitCode: 66,
      stderr: 'quality-evidence start:environment: cannot read the input file "does-not-exist.json": no such file or directory (ENOENT)\n',
    },
    {
      name: 'an input file that is not well-formed JSON',
      files: { 'executions.json': '{ "executions": [\n  { "statusCode": 200 ' },
      env: (folder) => ({ QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json') }),
      exitCode: 65,
      stderr:
        'quality-evidence start:environment: the input file is not well-formed JSON at line 2, column 23: Unexpected end of JSON input\n',
    },
    {
      name: 'a status code out of range',
      files: { 'executions.json': '{ "executions": [{ "statusCode": 600, "endpoint": "GET /orders", "responseTimeMs": 5 }] }' },
      env: (folder) => ({ QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json') }),
      exitCode: 65,
      stderr:
        'quality-evidence start:environment: 1 of 1 record is invalid:\n' +
        '  - executions[0].statusCode: must be an integer from 100 to 599; found 600 (a number)\n',
    },
    {
      name: 'a malformed record',
      files: { 'executions.json': '{ "executions": [{ "statusCode": 200, "endpoint": "GET /orders" }, "oops"] }' },
      env: (folder) => ({ QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json') }),
      exitCode: 65,
      stderr:
        'quality-evidence start:environment: 2 of 2 records are invalid:\n' +
        '  - executions[0].responseTimeMs: must be a finite number of milliseconds, zero or more; it is missing\n' +
        '  - executions[1]: must be an object; found a string\n',
    },
    {
      name: 'an output path that cannot be created and holds a secret',
      files: { 'executions.json': validInput, blocker: 'a file where a folder should be' },
      env: (folder) => ({
        QE_ENVIRONMENT: 'staging',
        QE_INPUT_PATH: join(folder, 'executions.json'),
        QE_OUTPUT_PATH: join(folder, 'blocker', fakeToken, 'summary.json'),
      }),
      exitCode: 73,
      stderr:
        'quality-evidence start:environment: cannot write the report: cannot create a folder on the path: a parent of the path is not a folder (ENOTDIR)\n',
    },
    {
      name: 'an output path that is an existing folder',
      files: { 'executions.json': validInput },
      env: (folder) => ({ QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json'), QE_OUTPUT_PATH: folder }),
      exitCode: 73,
      stderr:
        'quality-evidence start:environment: cannot write the report: the output path is a folder, not a regular file; ' +
        'the report is only ever written to a regular file\n',
    },
  ];

  for (const failure of failures) {
    test(`${failure.name}: exits ${failure.exitCode}, explains on stderr and writes no report`, async () => {
      const folder = await createTemporaryFolder(failure.files);
      const defaultReport = join(folder, '.build/quality-summary.json');

      const outcome = await runProgram('scripts/startEnvironment.js', {
        cwd: folder,
        env: { ...failure.env(folder), API_TOKEN: fakeToken },
      });

      expect(outcome).toEqual({ exitCode: failure.exitCode, stdout: '', stderr: failure.stderr });
      expect(await pathExists(defaultReport)).toBe(false);
    });
  }

  test('quality-evidence.config.json in the working directory gives what the variables leave out; a variable wins', async () => {
    const folder = await createTemporaryFolder({
      'executions.json': validInput,
      'quality-evidence.config.json': '{ "environment": "from-file", "slowResponseThresholdMs": 50, "outputFile": "reports/q.json" }',
    });

    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { QE_INPUT_PATH: 'executions.json', QE_SLOW_RESPONSE_THRESHOLD_MS: '1000' },
    });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(reportFrom(await readFile(join(folder, 'reports/q.json'), 'utf8'))).toMatchObject({
      environment: 'from-file',
      slowResponseThresholdMs: 1000,
      slowExecutionCount: 0,
    });
  });

  test('a settings file that QE_CONFIG_PATH names and that is missing is exit 66', async () => {
    const folder = await createTemporaryFolder({ 'executions.json': validInput });

    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'executions.json', QE_CONFIG_PATH: 'ci/settings.json' },
    });

    expect(outcome).toEqual({
      exitCode: 66,
      stdout: '',
      stderr: 'quality-evidence start:environment: cannot read the settings file "ci/settings.json": no such file or directory (ENOENT)\n',
    });
  });

  test('an unknown key in the settings file is exit 78, naming the key and the file', async () => {
    const folder = await createTemporaryFolder({
      'executions.json': validInput,
      'quality-evidence.config.json': '{ "environmnet": "typo" }',
    });

    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'executions.json' },
    });

    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toBe(
      'quality-evidence start:environment: invalid configuration:\n' +
        '  - environmnet in quality-evidence.config.json: is not a setting of quality-evidence.config.json (known: ' +
        'environment, slowResponseThresholdMs, outputFile, quiet, progress, expectedStatuses, expectedStatusesByEndpoint, ' +
        'apiCalls, routes, endpointGrouping, budgets, baselinePath, historyPath, historyLimit, historyReadOnly, ' +
        'historyPartialRuns, flakinessRuns, dashboardPath, baselineFromHistory, significanceLevel, failureExcerptBytes, redactKeys, openapi, ' +
        'openapiBase, exports, serviceName, traceContext, traceUrlTemplate, reportUrl, otlpSpanLimit, formats)\n',
    );
  });

  test('a failing run leaves an existing report untouched', async () => {
    const folder = await createTemporaryFolder({
      'executions.json': '[{ "statusCode": 99, "endpoint": "GET /x", "responseTimeMs": 1 }]',
      'summary.json': 'previous\n',
    });

    const outcome = await runProgram('scripts/startEnvironment.js', {
      env: { QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json'), QE_OUTPUT_PATH: join(folder, 'summary.json') },
    });

    expect(outcome.exitCode).toBe(65);
    expect(await readFile(join(folder, 'summary.json'), 'utf8')).toBe('previous\n');
  });

  test('a command-line argument is a usage error (exit 64)', async () => {
    const outcome = await runProgram('scripts/startEnvironment.js', { args: ['--input', 'x.json'] });

    expect(outcome).toEqual({
      exitCode: 64,
      stdout: '',
      stderr: "quality-evidence start:environment: Unknown option '--input'; quality-evidence start:environment takes no arguments\n",
    });
  });

  test('QE_DEBUG=1 adds the stack trace to an expected error', async () => {
    const outcome = await runProgram('scripts/startEnvironment.js', { env: { QE_DEBUG: '1' } });

    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toContain('ConfigurationError: invalid configuration:');
    expect(outcome.stderr).toMatch(/\n {4}at .*loadQualityToolConfig/);
  });
});

test('npm run validate prints one line per self-check and exits 0', async () => {
  const outcome = await runProgram('scripts/validate.js');

  expect(outcome.exitCode).toBe(0);
  expect(outcome.stdout.split('\n').filter((line) => line.startsWith('ok   '))).toHaveLength(13);
  expect(outcome.stdout).toContain('ok   statusCode 600 is rejected\n');
  expect(outcome.stdout).toContain('ok   endpoint "GET\\t/orders" normalises to "GET /orders"\n');
  expect(outcome.stdout).toContain('ok   statusCode "200" is rejected\n');
  expect(outcome.stdout.endsWith('13 passed, 0 failed\n')).toBe(true);
});

test('two runs over the same input write byte-identical reports', async () => {
  const folder = await createTemporaryFolder({ 'executions.json': validInput });
  const env = { QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: join(folder, 'executions.json'), QE_OUTPUT_PATH: join(folder, 'a.json') };

  const first = await runProgram('scripts/startEnvironment.js', { env });
  const firstFile = await readFile(join(folder, 'a.json'));
  const second = await runProgram('scripts/startEnvironment.js', { env });

  expect(second.stdout).toBe(first.stdout);
  expect(await readFile(join(folder, 'a.json'))).toEqual(firstFile);
});

test('a reader that closes the pipe early is not a failure', async () => {
  const outcome = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(process.execPath, [join(repositoryRoot, '.build/scripts/start.js')], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.destroy();
    child.on('close', (code) => {
      done({ code, stderr });
    });
  });

  expect(outcome).toEqual({ code: 0, stderr: '' });
});
