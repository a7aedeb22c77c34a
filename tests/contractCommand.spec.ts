import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './support/test.js';
import { createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';

// The contract as the command takes it: --openapi, QE_OPENAPI_PATH and the
// settings file, and each way a document can be wrong, with its exit code.

const petstore = join(repositoryRoot, 'fixtures/openapi/swagger-2.0-petstore-separate/spec/swagger.yaml');

const CALLS = JSON.stringify({
  executions: [
    { endpoint: 'GET /api/pets', statusCode: 200, responseTimeMs: 12 },
    { endpoint: 'GET /api/pets/17', statusCode: 200, responseTimeMs: 8 },
    { endpoint: 'GET /api/pets/rex', statusCode: 404, responseTimeMs: 3 },
    { endpoint: 'DELETE /api/pets/17', statusCode: 500, responseTimeMs: 30 },
    { endpoint: 'GET /api/health', statusCode: 200, responseTimeMs: 1 },
  ],
});

async function run(args: readonly string[], files: Readonly<Record<string, string>> = {}, env: Record<string, string> = {}) {
  const folder = await createTemporaryFolder({ 'calls.json': CALLS, ...files }, 'contract');
  const outcome = await runProgram('src/cli/main.js', {
    args: ['calls.json', '-o', 'out/q.json', '--formats', 'json', ...args],
    cwd: folder,
    env,
  });
  return { ...outcome, folder };
}

test('--openapi labels each call by its operation and adds the contract section', async () => {
  const { exitCode, stderr, folder } = await run(['--openapi', petstore]);
  expect([exitCode, stderr]).toStrictEqual([0, '']);
  const report = JSON.parse(await readFile(join(folder, 'out/q.json'), 'utf8')) as {
    endpoints: { endpoint: string }[];
    contract: { operationCount: number; exercisedOperationCount: number; unmatchedEndpoints: unknown[]; documents: unknown[] };
  };
  expect(report.endpoints.map((entry) => entry.endpoint)).toStrictEqual([
    'DELETE /pets/{id}',
    'GET /api/health',
    'GET /api/pets/rex',
    'GET /pets',
    'GET /pets/{id}',
  ]);
  expect(report.contract.documents).toStrictEqual([{ path: petstore, version: '2.0' }]);
  expect([report.contract.operationCount, report.contract.exercisedOperationCount]).toStrictEqual([4, 3]);
  // rex is no integer id: the call matches no operation.
  expect(report.contract.unmatchedEndpoints).toStrictEqual([
    { endpoint: 'GET /api/health', executionCount: 1 },
    { endpoint: 'GET /api/pets/rex', executionCount: 1 },
  ]);
});

test('QE_OPENAPI_PATH and the settings file key openapi give the same contract', async () => {
  const byVariable = await run([], {}, { QE_OPENAPI_PATH: petstore });
  const byFile = await run([], { 'quality-evidence.config.json': JSON.stringify({ openapi: [petstore] }) });
  const contractOf = async (folder: string) =>
    (JSON.parse(await readFile(join(folder, 'out/q.json'), 'utf8')) as { contract: unknown }).contract;
  expect([byVariable.exitCode, byFile.exitCode]).toStrictEqual([0, 0]);
  expect(await contractOf(byVariable.folder)).toStrictEqual(await contractOf(byFile.folder));
});

for (const [name, files, exitCode, message] of [
  [
    'a missing document is exit 66, naming it',
    {},
    66,
    'quality-evidence: cannot read the OpenAPI document "missing.yaml": no such file or directory (ENOENT)\n',
  ],
  [
    'a document that does not parse is exit 78, with the line and column',
    { 'missing.yaml': 'openapi: 3.0.3\ninfo: {}\nopenapi: 3.1.0\n' },
    78,
    'quality-evidence: invalid OpenAPI document:\n  - "missing.yaml": is not well-formed YAML at line 3, column 1\n',
  ],
  [
    'a document that is not OpenAPI is exit 78',
    { 'missing.yaml': 'asyncapi: 2.6.0\n' },
    78,
    'quality-evidence: invalid OpenAPI document:\n  - "missing.yaml": is not an OpenAPI document this version reads: ' +
      'it needs "openapi": "3.0.x" or "3.1.x", or "swagger": "2.0"; it has neither\n',
  ],
] as const) {
  test(`${name}, and nothing is written`, async () => {
    const outcome = await run(['--openapi', 'missing.yaml'], files);
    expect([outcome.exitCode, outcome.stdout, outcome.stderr]).toStrictEqual([exitCode, '', message]);
    await expect(readFile(join(outcome.folder, 'out/q.json'))).rejects.toThrow('ENOENT');
  });
}

test('the report may not replace the document: exit 73 before anything is written', async () => {
  const outcome = await run(['--openapi', 'api.json'], { 'api.json': JSON.stringify({ openapi: '3.1.0', paths: {} }) });
  expect(outcome.exitCode).toBe(0);
  const replacing = await runProgram('src/cli/main.js', {
    args: ['calls.json', '--openapi', 'api.json', '-o', 'api.json'],
    cwd: outcome.folder,
  });
  expect([replacing.exitCode, replacing.stderr]).toStrictEqual([
    73,
    'quality-evidence: cannot write the report: the output path is the OpenAPI document "api.json", ' +
      'which this run reads: writing the report there would destroy it\n',
  ]);
  expect(JSON.parse(await readFile(join(outcome.folder, 'api.json'), 'utf8'))).toStrictEqual({ openapi: '3.1.0', paths: {} });
});

test(`a HAR file read with a contract has the bodies its recorder kept checked: base64 or text, response and request, never a \
value in the report`, async () => {
  const entry = (
    method: string,
    url: string,
    status: number,
    text: string | undefined,
    extra: Record<string, unknown> = {},
    encoding?: string,
  ) => ({
    startedDateTime: '2026-11-24T00:00:00.000Z',
    time: 5,
    request: { method, url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: -1, ...extra },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      content: {
        size: 0,
        mimeType: 'application/json',
        ...(text === undefined ? {} : { text }),
        ...(encoding === undefined ? {} : { encoding }),
      },
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  });
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'spec', version: '1' },
      entries: [
        entry('GET', 'http://petstore.swagger.io/v2/pets', 200, JSON.stringify([{ id: 1, name: 'rex' }])),
        entry(
          'GET',
          'http://petstore.swagger.io/v2/pets/1',
          200,
          Buffer.from(JSON.stringify({ id: 'SECRET-VALUE' })).toString('base64'),
          {},
          'base64',
        ),
        entry('POST', 'http://petstore.swagger.io/v2/pets', 200, JSON.stringify({ id: 2, name: 'rex' }), {
          postData: { mimeType: 'application/json', text: JSON.stringify({ tag: 'SECRET-REQUEST' }) },
        }),
        entry('DELETE', 'http://petstore.swagger.io/v2/pets/1', 204, undefined),
      ],
    },
  };
  const folder = await createTemporaryFolder({ 'calls.har': JSON.stringify(har) }, 'contract-har');
  const outcome = await runProgram('src/cli/main.js', {
    args: ['calls.har', '-o', 'out/q.json', '--openapi', join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml')],
    cwd: folder,
  });
  expect([outcome.exitCode, outcome.stderr]).toStrictEqual([0, '']);
  const text = await readFile(join(folder, 'out/q.json'), 'utf8');
  const report = JSON.parse(text) as {
    contract: { operations: { endpoint: string; validatedCount: number; schemaViolationCount: number; topViolations: unknown[] }[] };
  };
  expect(
    report.contract.operations.map(({ endpoint, validatedCount, schemaViolationCount, topViolations }) => [
      endpoint,
      validatedCount,
      schemaViolationCount,
      topViolations,
    ]),
  ).toStrictEqual([
    ['GET /pets', 1, 0, []],
    ['POST /pets', 2, 1, [{ body: 'request', pointer: '/name', keyword: 'required', count: 1 }]],
    [
      'GET /pets/{id}',
      1,
      1,
      [
        { body: 'response', pointer: '/id', keyword: 'type', count: 1 },
        { body: 'response', pointer: '/name', keyword: 'required', count: 1 },
      ],
    ],
    ['DELETE /pets/{id}', 0, 0, []],
  ]);
  const outputs = [
    text,
    outcome.stdout,
    ...(await Promise.all(['md', 'html'].map((extension) => readFile(join(folder, `out/q.${extension}`), 'utf8')))),
  ];
  expect(outputs.filter((output) => output.includes('SECRET'))).toStrictEqual([]);
});
