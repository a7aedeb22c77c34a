import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './support/test.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';

// A run with both documents (openapi, HEAD; openapiBase, BASE) reports the
// changes between them, weighed by its own calls, in contract.changes; the
// budgets maxBreakingChanges and maxBreakingChangesExercised gate them, in
// the run and in check (docs/contract-diff.md#in-a-runs-report).

const COMMAND = 'src/cli/main.js';

// BASE answers GET /users/{id} with an email too, and has DELETE /users/{id}; HEAD has neither, and takes a limit on GET /users.
const user = (withEmail: boolean) =>
  `{ type: object, required: [id], properties: { id: { type: integer }, name: { type: string }${withEmail ? ', email: { type: string }' : ''} } }`;
const document = (base: boolean) =>
  [
    'openapi: 3.0.3',
    'info: { title: users, version: "1" }',
    'paths:',
    '  /users:',
    '    get:',
    '      operationId: listUsers',
    ...(base ? [] : ['      parameters: [{ name: limit, in: query, schema: { type: integer } }]']),
    '      responses:',
    `        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${user(true)} } } } }`,
    '  /users/{id}:',
    '    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
    '    get:',
    '      operationId: getUser',
    '      responses:',
    `        '200': { description: ok, content: { application/json: { schema: ${user(base)} } } }`,
    ...(base ? ['    delete:', '      operationId: deleteUser', "      responses: { '204': { description: gone } }"] : []),
    '',
  ].join('\n');

const CALLS = JSON.stringify({
  executions: [
    { endpoint: 'GET /users/17', statusCode: 200, responseTimeMs: 12 },
    { endpoint: 'GET /users/18', statusCode: 200, responseTimeMs: 9 },
  ],
});

const FILES = { 'head.yaml': document(false), 'base.yaml': document(true), 'calls.json': CALLS };

async function run(args: readonly string[], files: Readonly<Record<string, string>> = {}, env: Record<string, string> = {}) {
  const folder = await createTemporaryFolder({ ...FILES, ...files }, 'changes');
  const outcome = await runProgram(COMMAND, { args: ['calls.json', '-o', 'out/q.json', '--formats', 'json', ...args], cwd: folder, env });
  return { ...outcome, folder };
}

async function changesOf(folder: string, file = 'out/q.json'): Promise<unknown> {
  return (JSON.parse(await readFile(join(folder, file), 'utf8')) as { contract: { changes?: unknown } }).contract.changes;
}

// Breaking first, then info (the diff gives GET /users's change first: HEAD's operation order); a removal points into BASE.
const EXPECTED_CHANGES = {
  base: ['base.yaml'],
  summary: { breaking: 2, warning: 0, info: 1, breakingExercised: 1 },
  changes: [
    {
      rule: 'response-property-removed',
      level: 'breaking',
      operation: { method: 'GET', path: '/users/{id}', label: 'GET /users/{id}', operationId: 'getUser' },
      base: '#/paths/~1users~1%7Bid%7D/get/responses/200/content/application~1json/schema/properties/email',
      subject: { kind: 'responseProperty', status: '200', property: ['email'] },
      message: 'GET /users/{id}: response 200: property email removed',
      // Records name no tests, nor the conditions their calls met: the calls alone.
      evidence: { exercised: true, calls: 2, unlistedTestCount: 0 },
    },
    {
      rule: 'operation-removed',
      level: 'breaking',
      operation: { method: 'DELETE', path: '/users/{id}', label: 'DELETE /users/{id}', operationId: 'deleteUser' },
      base: '#/paths/~1users~1%7Bid%7D/delete',
      subject: { kind: 'operation' },
      message: 'DELETE /users/{id}: operation removed',
      evidence: { exercised: false },
    },
    {
      rule: 'request-parameter-added-optional',
      level: 'info',
      operation: { method: 'GET', path: '/users', label: 'GET /users', operationId: 'listUsers' },
      head: '#/paths/~1users/get/parameters/0',
      subject: { kind: 'parameter', in: 'query', name: 'limit' },
      message: 'GET /users: query parameter limit added as optional',
      evidence: { exercised: false },
    },
  ],
};

test('a run with openapi and openapiBase lists the changes between them, each weighed by its calls', async () => {
  const { exitCode, stderr, folder } = await run(['--openapi', 'head.yaml', '--openapi-base', 'base.yaml']);
  expect([exitCode, stderr]).toStrictEqual([0, '']);
  expect(await changesOf(folder)).toStrictEqual(EXPECTED_CHANGES);
});

test('maxBreakingChanges below the breaking changes breaches the run (exit 1, the breach on stderr); maxBreakingChangesExercised holds', async () => {
  const budgets = JSON.stringify({ maxBreakingChanges: 1, maxBreakingChangesExercised: 1 });
  const { exitCode, stderr, folder } = await run(['--openapi', 'head.yaml', '--openapi-base', 'base.yaml', '--budgets', 'b.json'], {
    'b.json': budgets,
  });
  expect([exitCode, stderr]).toStrictEqual([1, 'quality-evidence: 1 of 2 budgets breached:\n  FAIL maxBreakingChanges: 2 (limit ≤ 1)\n']);
  const report = JSON.parse(await readFile(join(folder, 'out/q.json'), 'utf8')) as { budgets: unknown };
  expect(report.budgets).toStrictEqual({
    passed: false,
    results: [
      { budget: 'maxBreakingChanges', limit: 1, actual: 2, passed: false },
      { budget: 'maxBreakingChangesExercised', limit: 1, actual: 1, passed: true },
    ],
  });
});

test('maxBreakingChangesExercised below the exercised breaking changes breaches the run', async () => {
  const { exitCode, stderr } = await run(['--openapi', 'head.yaml', '--openapi-base', 'base.yaml', '--budgets', 'b.json'], {
    'b.json': JSON.stringify({ maxBreakingChanges: 2, maxBreakingChangesExercised: 0 }),
  });
  expect([exitCode, stderr]).toStrictEqual([
    1,
    'quality-evidence: 1 of 2 budgets breached:\n  FAIL maxBreakingChangesExercised: 1 (limit ≤ 0)\n',
  ]);
});

test('check judges the budgets on the written report as the run did', async () => {
  const { exitCode, folder } = await run(['--openapi', 'head.yaml', '--openapi-base', 'base.yaml'], {
    'b.json': JSON.stringify({ maxBreakingChanges: 1, maxBreakingChangesExercised: 1 }),
  });
  expect(exitCode).toBe(0);
  const checked = await runProgram(COMMAND, { args: ['check', 'out/q.json', '--budgets', 'b.json'], cwd: folder });
  expect([checked.exitCode, checked.stdout, checked.stderr]).toStrictEqual([
    1,
    'FAIL maxBreakingChanges: 2 (limit ≤ 1)\n' +
      'pass maxBreakingChangesExercised: 1 (limit ≤ 1)\n' +
      'quality-evidence check: 1 of 2 budgets breached\n',
    '',
  ]);
});

test('check breaches both budgets on a report of a run without openapiBase, and says so', async () => {
  const { exitCode, folder } = await run(['--openapi', 'head.yaml'], {
    'b.json': JSON.stringify({ maxBreakingChanges: 5, maxBreakingChangesExercised: 5 }),
  });
  expect(exitCode).toBe(0);
  expect(await changesOf(folder)).toBeUndefined();
  const checked = await runProgram(COMMAND, { args: ['check', 'out/q.json', '--budgets', 'b.json'], cwd: folder });
  expect([checked.exitCode, checked.stdout, checked.stderr]).toStrictEqual([
    1,
    'FAIL maxBreakingChanges: no data (the run had no openapiBase: no changes were counted) (limit ≤ 5)\n' +
      'FAIL maxBreakingChangesExercised: no data (the run had no openapiBase: no changes were counted) (limit ≤ 5)\n' +
      'quality-evidence check: 2 of 2 budgets breached\n',
    '',
  ]);
});

test('openapiBase without openapi is a configuration error (78) naming both, and nothing is written', async () => {
  const { exitCode, stdout, stderr, folder } = await run([], {}, { QE_OPENAPI_BASE_PATH: 'base.yaml' });
  expect([exitCode, stdout, stderr]).toStrictEqual([
    78,
    '',
    'quality-evidence: invalid configuration:\n' +
      "  - openapiBase: needs openapi, the run's document it is compared with: name that with --openapi, QE_OPENAPI_PATH or the openapi option\n",
  ]);
  await expect(readFile(join(folder, 'out/q.json'))).rejects.toThrow('ENOENT');
});

test('budgets naming maxBreakingChanges in a run without openapiBase are a configuration error (78), and nothing is written', async () => {
  const { exitCode, stdout, stderr, folder } = await run(['--openapi', 'head.yaml', '--budgets', 'b.json'], {
    'b.json': JSON.stringify({ maxBreakingChanges: 0 }),
  });
  expect([exitCode, stdout, stderr]).toStrictEqual([
    78,
    '',
    'quality-evidence: invalid configuration:\n' +
      '  - maxBreakingChanges in "b.json": counts the changes between two OpenAPI documents: ' +
      'name the BASE one with --openapi-base, QE_OPENAPI_BASE_PATH or the openapiBase option\n',
  ]);
  await expect(readFile(join(folder, 'out/q.json'))).rejects.toThrow('ENOENT');
});

test('merge with openapi and openapiBase gives the changes, weighed by the merged calls', async () => {
  const { exitCode, folder } = await run(['--openapi', 'head.yaml']);
  expect(exitCode).toBe(0);
  // A second shard: one more call of GET /users/{id}.
  await writeFile(
    join(folder, 'more.json'),
    JSON.stringify({ executions: [{ endpoint: 'GET /users/19', statusCode: 200, responseTimeMs: 7 }] }),
  );
  const again = await runProgram(COMMAND, {
    args: ['more.json', '-o', 'b.json', '--formats', 'json', '--openapi', 'head.yaml'],
    cwd: folder,
  });
  expect(again.exitCode).toBe(0);
  const merged = await runProgram(COMMAND, {
    args: ['merge', 'out/q.json', 'b.json', '-o', 'all.json', '--formats', 'json', '--openapi', 'head.yaml', '--openapi-base', 'base.yaml'],
    cwd: folder,
  });
  expect([merged.exitCode, merged.stderr]).toStrictEqual([0, '']);
  const [property, ...others] = EXPECTED_CHANGES.changes;
  expect(await changesOf(folder, 'all.json')).toStrictEqual({
    ...EXPECTED_CHANGES,
    changes: [{ ...property!, evidence: { exercised: true, calls: 3, unlistedTestCount: 0 } }, ...others],
  });
});

test('the report may not overwrite a BASE document: refused before anything is read, the document kept', async () => {
  const { exitCode, stdout, stderr, folder } = await run(['--openapi', 'head.yaml', '--openapi-base', 'base.yaml', '-o', 'base.yaml']);
  expect([exitCode, stdout, stderr]).toStrictEqual([
    73,
    '',
    'quality-evidence: cannot write the report: the output path is the OpenAPI document "base.yaml", which this run reads: ' +
      'writing the report there would destroy it\n',
  ]);
  expect(await readFile(join(folder, 'base.yaml'), 'utf8')).toBe(FILES['base.yaml']);
});

test('the reporter with openapi and openapiBase weighs each change by the tests that made the calls', async () => {
  test.setTimeout(240_000);
  const project = await createPlaywrightProject({
    'playwright.config.ts':
      "import { defineConfig } from '@playwright/test';\n" +
      "export default defineConfig({ testDir: './tests', reporter: [['quality-evidence/reporter', " +
      "{ outputFile: 'out/q.json', formats: ['json'], openapi: 'head.yaml', openapiBase: 'base.yaml' }]] });\n",
    'head.yaml': FILES['head.yaml'],
    'base.yaml': FILES['base.yaml'],
    'tests/users.spec.ts':
      "import { test } from '@playwright/test';\n" +
      "import { recordExecution } from 'quality-evidence/reporter';\n" +
      "test('reads one', async () => {\n" +
      "  await recordExecution({ statusCode: 200, endpoint: 'GET /users/17', responseTimeMs: 6 });\n" +
      '});\n',
  });
  const outcome = await runPlaywright(project, ['test']);
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  const [property, ...others] = EXPECTED_CHANGES.changes;
  expect(await changesOf(project)).toStrictEqual({
    ...EXPECTED_CHANGES,
    changes: [
      {
        ...property!,
        evidence: {
          exercised: true,
          calls: 1,
          tests: [{ file: 'users.spec.ts', line: 3, title: 'users.spec.ts › reads one' }],
          unlistedTestCount: 0,
        },
      },
      ...others,
    ],
  });
});
