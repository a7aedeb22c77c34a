import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence contract-diff BASE_DOC HEAD_DOC --output FILE`, the
// compiled program: the changes written as JSON with their summary, the
// summary line printed, and each way it is misused, with its exit code,
// before anything is written.

const COMMAND = 'src/cli/main.js';

const BASE = `openapi: 3.0.3
info: { title: users, version: '1' }
paths:
  /users/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string } }
    get:
      operationId: getUser
      responses:
        '200':
          description: the user
          content:
            application/json:
              schema: { $ref: '#/components/schemas/User' }
    delete:
      responses:
        '204': { description: deleted }
components:
  schemas:
    User:
      type: object
      required: [id, email]
      properties:
        id: { type: string }
        email: { type: string }
        nickname: { type: string }
`;

// Breaking: email removed, DELETE removed, a required query parameter added. Warning: a 404 added.
// Info: the path parameter renamed, a new operation.
const HEAD = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'users', version: '2' },
  paths: {
    '/users/{userId}': {
      parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getUser',
        parameters: [{ name: 'fields', in: 'query', required: true, schema: { type: 'string' } }],
        responses: {
          200: { description: 'the user', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
          404: { description: 'no such user' },
        },
      },
    },
    '/users': { get: { operationId: 'listUsers', responses: { 200: { description: 'the users' } } } },
  },
  components: {
    schemas: { User: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, nickname: { type: 'string' } } } },
  },
});

async function run(args: readonly string[], files: Readonly<Record<string, string>> = { 'base.yaml': BASE, 'head.json': HEAD }) {
  const folder = await createTemporaryFolder(files, 'contract-diff');
  const outcome = await runProgram(COMMAND, { cwd: folder, args: [...args] });
  return { ...outcome, folder, written: (await readdir(folder)).sort() };
}

test('writes the changes with their summary, and prints the summary line', async () => {
  const { exitCode, stdout, stderr, folder } = await run(['contract-diff', 'base.yaml', 'head.json', '--output', 'out/changes.json']);
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  expect(stdout).toBe('quality-evidence contract-diff: 3 breaking changes, 1 warning, 2 info; written to out/changes.json\n');
  const written = JSON.parse(await readFile(join(folder, 'out/changes.json'), 'utf8')) as {
    base: string;
    head: string;
    summary: object;
    changes: { rule: string; level: string; operation: { label: string } }[];
  };
  expect({ base: written.base, head: written.head, summary: written.summary }).toEqual({
    base: 'base.yaml',
    head: 'head.json',
    summary: { breaking: 3, warning: 1, info: 2 },
  });
  expect(written.changes.map(({ rule, level, operation }) => `${level} ${rule} ${operation.label}`)).toEqual([
    // An operation's changes by pointer: the component's before the operation's own.
    'breaking response-property-removed GET /users/{userId}',
    'info path-parameter-renamed GET /users/{userId}',
    'breaking request-parameter-added-required GET /users/{userId}',
    'warning response-status-added GET /users/{userId}',
    'info operation-added GET /users',
    'breaking operation-removed DELETE /users/{id}',
  ]);
});

test('--help prints the usage and exits 0', async () => {
  const { exitCode, stdout } = await run(['contract-diff', '--help']);
  expect(exitCode).toBe(0);
  expect(stdout).toMatch(
    /^Usage: quality-evidence contract-diff <BASE_DOC> <HEAD_DOC> --output <file> \[--report <file> \| --history <file>\]\n/,
  );
});

test('one document, or no --output, is a usage error (64), and nothing is written', async () => {
  const one = await run(['contract-diff', 'base.yaml', '--output', 'changes.json']);
  const none = await run(['contract-diff', 'base.yaml', 'head.json']);
  expect([one.exitCode, none.exitCode]).toEqual([64, 64]);
  expect(one.stderr).toContain('contract-diff takes two OpenAPI documents, BASE and HEAD (got 1)');
  expect(none.stderr).toContain('contract-diff needs --output <file>');
  expect([one.written, none.written]).toEqual([
    ['base.yaml', 'head.json'],
    ['base.yaml', 'head.json'],
  ]);
});

test('a missing document exits 66 naming it, and nothing is written', async () => {
  const { exitCode, stderr, written } = await run(['contract-diff', 'base.yaml', 'gone.yaml', '--output', 'changes.json']);
  expect(exitCode).toBe(66);
  expect(stderr).toContain('gone.yaml');
  expect(stderr).not.toContain('    at ');
  expect(written).toEqual(['base.yaml', 'head.json']);
});

test('a document that is no OpenAPI document exits 78, as the openapi setting refuses it, and nothing is written', async () => {
  const files = { 'base.yaml': BASE, 'head.json': '{"swagger": "1.2"}' };
  const { exitCode, stderr, written } = await run(['contract-diff', 'base.yaml', 'head.json', '--output', 'changes.json'], files);
  expect(exitCode).toBe(78);
  expect(stderr).toContain('is not an OpenAPI document this version reads');
  expect(written).toEqual(['base.yaml', 'head.json']);
});

test('an output that is one of the documents exits 73, and the document is kept', async () => {
  const { exitCode, folder } = await run(['contract-diff', 'base.yaml', 'head.json', '--output', 'head.json']);
  expect(exitCode).toBe(73);
  expect(await readFile(join(folder, 'head.json'), 'utf8')).toBe(HEAD);
});
