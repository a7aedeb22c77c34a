import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './support/test.js';
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
