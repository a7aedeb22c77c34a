import { expect, test } from '@playwright/test';
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
  "schemaVersion": 1,
  "environment": "staging",
  "slowResponseThresholdMs": 750,
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
  "noResponseEndpoints": []
}
`;

test('writes the formatted report to the output path, creating its folders', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput });

  const result = await runQualityWorkflow(config, { fileSystem });

  expect(result.reportText).toBe(expectedReport);
  expect(fileSystem.files.get('out/reports/quality-summary.json')).toBe(expectedReport);
});

test('writes through a temporary file in the target folder and leaves only the report', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput });

  await runQualityWorkflow(config, { fileSystem });

  expect(fileSystem.writes).toHaveLength(1);
  expect(fileSystem.writes[0]).toMatch(/^out\/reports\/\.quality-evidence-[0-9a-f]{8}\.tmp$/);
  expect([...fileSystem.files.keys()].sort()).toEqual(['input/executions.json', 'out/reports/quality-summary.json']);
});

test('gives byte-identical reports for the same input and configuration', async () => {
  const first = await runQualityWorkflow(config, { fileSystem: new MemoryFileSystem({ 'input/executions.json': sampleInput }) });
  const second = await runQualityWorkflow(config, { fileSystem: new MemoryFileSystem({ 'input/executions.json': sampleInput }) });

  expect(second.reportText).toBe(first.reportText);
});

test('an empty list of executions gives an all-zero report', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': '{ "executions": [] }' });

  const { report } = await runQualityWorkflow(config, { fileSystem });

  expect(report).toEqual({
    schemaVersion: 1,
    environment: 'staging',
    slowResponseThresholdMs: 750,
    executionCount: 0,
    failedExecutionCount: 0,
    slowExecutionCount: 0,
    failureCountByEndpoint: {},
    slowEndpoints: [],
    noResponseCount: 0,
    noResponseEndpoints: [],
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
    message: '1 of 1 record is invalid:\n  - executions[0].endpoint: must be of the form "<METHOD> <path>", with a path that starts with "/"; found "orders" (a string)',
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

for (const operation of ['makeDirectory', 'writeFile', 'rename'] as const) {
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

test('the write error keeps the file-system failure as its cause and does not name the output path', async () => {
  const fileSystem = new MemoryFileSystem({ 'input/executions.json': sampleInput }).failOn('rename', 'ENOSPC');

  const error: unknown = await runQualityWorkflow(config, { fileSystem }).catch((caught: unknown) => caught);

  expect(error).toBeInstanceOf(ReportWriteError);
  expect((error as ReportWriteError).cause).toMatchObject({ code: 'ENOSPC' });
  expect((error as ReportWriteError).message).not.toContain('quality-summary');
});
