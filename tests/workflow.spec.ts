import { expect, test } from './support/test.js';
import {
  InputSyntaxError,
  InputUnreadableError,
  RecordValidationError,
  ReportWriteError,
  runQualityWorkflow,
  type QualityToolConfig,
} from '../src/index.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

const config: QualityToolConfig = {
  environment: 'staging',
  slowResponseThresholdMs: 750,
  inputPath: 'input/executions.json',
  outputPath: 'out/reports/quality-summary.json',
};

const sampleInput = JSON.stringify({
  executions: [
    { statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 120 },
    { statusCode: 503, endpoint: ' post  /orders', responseTimeMs: 980 },
    { statusCode: 201, endpoint: 'GET /invoices', responseTimeMs: 1210 },
  ],
});

const expectedReport = `{
  "schemaVersion": 2,
  "environment": "staging",
  "slowResponseThresholdMs": 750,
  "expectedStatuses": "100-399",
  "executionCount": 3,
  "failedExecutionCount": 1,
  "slowExecutionCount": 2,
  "failureCountByEndpoint": {
    "POST /orders": 1
  },
  "slowEndpoints": [
    "GET /invoices",
    "POST /orders"
  ],
  "noResponseCount": 0,
  "noResponseEndpoints": [],
  "serverErrorCount": 1,
  "expectedErrorCount": 0,
  "statusCodes": {
    "200": 1,
    "201": 1,
    "503": 1
  },
  "responseTimeMs": {
    "min": 120,
    "mean": 770,
    "p50": 980,
    "p90": 1210,
    "p95": 1210,
    "p99": 1210,
    "max": 1210,
    "source": "exact"
  },
  "endpoints": [
    {
      "endpoint": "GET /invoices",
      "executionCount": 1,
      "failedExecutionCount": 0,
      "expectedErrorCount": 0,
      "slowExecutionCount": 1,
      "noResponseCount": 0,
      "serverErrorCount": 0,
      "statusCodes": {
        "201": 1
      },
      "responseTimeMs": {
        "min": 1210,
        "mean": 1210,
        "p50": 1210,
        "p90": 1210,
        "p95": 1210,
        "p99": 1210,
        "max": 1210,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[355, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 201,
          "executionCount": 1,
          "totalMs": 1210
        }
      ]
    },
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
        "min": 120,
        "mean": 120,
        "p50": 120,
        "p90": 120,
        "p95": 120,
        "p99": 120,
        "max": 120,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[240, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 200,
          "executionCount": 1,
          "totalMs": 120
        }
      ]
    },
    {
      "endpoint": "POST /orders",
      "executionCount": 1,
      "failedExecutionCount": 1,
      "expectedErrorCount": 0,
      "slowExecutionCount": 1,
      "noResponseCount": 0,
      "serverErrorCount": 1,
      "statusCodes": {
        "503": 1
      },
      "responseTimeMs": {
        "min": 980,
        "mean": 980,
        "p50": 980,
        "p90": 980,
        "p95": 980,
        "p99": 980,
        "max": 980,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[345, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 503,
          "executionCount": 1,
          "totalMs": 980
        }
      ],
      "failedExecutions": [
        {
          "method": "POST",
          "path": "/orders",
          "statusCode": 503,
          "responseTimeMs": 980,
          "location": "executions[1] of input/executions.json"
        }
      ]
    }
  ],
  "slowestExecutions": [
    {
      "endpoint": "GET /invoices",
      "statusCode": 201,
      "responseTimeMs": 1210,
      "location": "executions[2] of input/executions.json"
    },
    {
      "endpoint": "POST /orders",
      "statusCode": 503,
      "responseTimeMs": 980,
      "location": "executions[1] of input/executions.json"
    },
    {
      "endpoint": "GET /orders",
      "statusCode": 200,
      "responseTimeMs": 120,
      "location": "executions[0] of input/executions.json"
    }
  ]
}
`;

test('writes the formatted report to the output path, creating its folders', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput });

  const result = await runQualityWorkflow(config, { fileSystem });

  expect(result.reportText).toBe(expectedReport);
  expect(fileSystem.files.get('out/reports/quality-summary.json')).toBe(expectedReport);
});

test('writes each report file through a temporary file in the target folder and leaves only the report files', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput });

  const { files } = await runQualityWorkflow(config, { fileSystem });

  expect(fileSystem.writes).toHaveLength(3);
  for (const written of fileSystem.writes) expect(written).toMatch(/^out\/reports\/\.quality-evidence-[0-9a-f]{6}-\d+-[0-9a-f]{8}\.tmp$/);
  expect(files).toStrictEqual(['out/reports/quality-summary.json', 'out/reports/quality-summary.md', 'out/reports/quality-summary.html']);
  expect([...fileSystem.files.keys()].sort()).toEqual([
    'input/executions.json',
    'out/reports/quality-summary.html',
    'out/reports/quality-summary.json',
    'out/reports/quality-summary.md',
  ]);
});

test('formats choose the renderings; the JSON report is always written, and a name without .json gets the extensions added', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput });

  const htmlOnly = await runQualityWorkflow({ ...config, formats: ['html'] }, { fileSystem });
  const noExtension = await runQualityWorkflow({ ...config, outputPath: 'out/summary', formats: ['markdown'] }, { fileSystem });

  expect(htmlOnly.files).toStrictEqual(['out/reports/quality-summary.json', 'out/reports/quality-summary.html']);
  expect(noExtension.files).toStrictEqual(['out/summary', 'out/summary.md']);
  expect([...fileSystem.files.keys()].sort()).toEqual([
    'input/executions.json',
    'out/reports/quality-summary.html',
    'out/reports/quality-summary.json',
    'out/summary',
    'out/summary.md',
  ]);
});

test('when one report file cannot be renamed into place, the temporary files are removed and earlier reports stay as they were', async () => {
  const fileSystem = new MemoryFileSystem({
    'input/executions.json': sampleInput,
    'out/reports/quality-summary.json': 'earlier',
    'out/reports/quality-summary.md': 'earlier md',
  }).failOn('rename', 'EACCES');

  await expect(runQualityWorkflow(config, { fileSystem })).rejects.toThrow('permission denied (EACCES)');

  expect(Object.fromEntries(fileSystem.files)).toStrictEqual({
    'input/executions.json': sampleInput,
    'out/reports/quality-summary.json': 'earlier',
    'out/reports/quality-summary.md': 'earlier md',
  });
});

test('gives byte-identical reports for the same input and configuration', async () => {
  const first = await runQualityWorkflow(config, { fileSystem: new MemoryFileSystem({ 'input/executions.json': sampleInput }) });
  const second = await runQualityWorkflow(config, { fileSystem: new MemoryFileSystem({ 'input/executions.json': sampleInput }) });

  expect(second.reportText).toBe(first.reportText);
});

test('an empty list of executions gives an all-zero report', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': '{ "executions": [] }' });

  const { report } = await runQualityWorkflow(config, { fileSystem });

  expect(report).toStrictEqual({
    schemaVersion: 2,
    environment: 'staging',
    slowResponseThresholdMs: 750,
    expectedStatuses: '100-399',
    executionCount: 0,
    failedExecutionCount: 0,
    slowExecutionCount: 0,
    failureCountByEndpoint: {},
    slowEndpoints: [],
    noResponseCount: 0,
    noResponseEndpoints: [],
    serverErrorCount: 0,
    expectedErrorCount: 0,
    statusCodes: {},
    responseTimeMs: { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null, source: 'exact' },
    endpoints: [],
    slowestExecutions: [],
  });
});

const previousReport = '{ "previous": true }\n';

const failures: readonly { name: string; files: Record<string, string>; error: new (...args: never[]) => Error; message: string }[] = [
  {
    name: 'a missing input file',
    files: {},
    error: InputUnreadableError,
    message: 'cannot read the input file "input/executions.json": no such file or directory (ENOENT)',
  },
  {
    name: 'an input file that is not well-formed JSON',
    files: { 'input/executions.json': '{ "executions": [\n  { "statusCode": 200,, }\n]}' },
    error: InputSyntaxError,
    message: 'the input file is not well-formed JSON',
  },
  {
    name: 'a record with an invalid status code',
    files: { 'input/executions.json': '[{ "statusCode": 600, "endpoint": "GET /orders", "responseTimeMs": 1 }]' },
    error: RecordValidationError,
    message: '1 of 1 record is invalid:\n  - [0].statusCode: must be an integer from 100 to 599; found 600 (a number)',
  },
  {
    name: 'a malformed record',
    files: { 'input/executions.json': '{ "executions": [{ "statusCode": 200, "endpoint": "orders", "responseTimeMs": 1 }] }' },
    error: RecordValidationError,
    message:
      '1 of 1 record is invalid:\n  - executions[0].endpoint: must be of the form "<METHOD> <path>", with a path that ' +
      'starts with "/"; found "orders" (a string)',
  },
];

for (const failure of failures) {
  test(`${failure.name} stops the workflow before anything is written`, async () => {
    const fileSystem = new MemoryFileSystem({ ...failure.files, 'out/reports/quality-summary.json': previousReport });

    const run = runQualityWorkflow(config, { fileSystem });

    await expect(run).rejects.toThrow(failure.error);
    await expect(run).rejects.toThrow(failure.message);
    expect(fileSystem.writes).toEqual([]);
    expect(fileSystem.files.get('out/reports/quality-summary.json')).toBe(previousReport);
  });
}

for (const operation of ['createFile', 'rename'] as const) {
  test(`a failing ${operation} leaves the earlier report untouched and no temporary file behind`, async () => {
    const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput, 'out/reports/quality-summary.json': previousReport });
    fileSystem.failOn(operation, 'EACCES');

    const run = runQualityWorkflow(config, { fileSystem });

    await expect(run).rejects.toThrow(ReportWriteError);
    await expect(run).rejects.toThrow('cannot write the report: permission denied (EACCES)');
    expect([...fileSystem.files.keys()].sort()).toEqual(['input/executions.json', 'out/reports/quality-summary.json']);
    expect(fileSystem.files.get('out/reports/quality-summary.json')).toBe(previousReport);
  });
}

test('a folder of the output path that cannot be created is a write error that names the failure, not the path', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput }).failOn('makeDirectory', 'EACCES');

  const run = runQualityWorkflow(config, { fileSystem });

  await expect(run).rejects.toThrow(ReportWriteError);
  await expect(run).rejects.toThrow(/^cannot write the report: cannot create a folder on the path: permission denied \(EACCES\)$/);
  expect([...fileSystem.files.keys()]).toEqual(['input/executions.json']);
});

test('the write error keeps the file-system failure as its cause and does not name the output path', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput }).failOn('rename', 'ENOSPC');

  const error: unknown = await runQualityWorkflow(config, { fileSystem }).catch((caught: unknown) => caught);

  expect(error).toBeInstanceOf(ReportWriteError);
  expect((error as ReportWriteError).cause).toMatchObject({ code: 'ENOSPC' });
  expect((error as ReportWriteError).message).not.toContain('quality-summary');
});
