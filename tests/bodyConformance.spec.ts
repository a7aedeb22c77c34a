import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBodyChecker, BODY_VALIDATION_LIMIT_BYTES, type BodyChecker } from '../src/contract/bodyConformance.js';
import type { Contract, ContractOperation } from '../src/contract/contract.js';
import { loadContract } from '../src/contract/loadContract.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Bodies checked against the schemas of the operation a call matched, on
// real documents (fixtures/openapi) and hand-made ones for each rule. The
// outcome names places and keywords only: no value from a body.

async function contractOf(file: string, text?: string): Promise<Contract> {
  const content = text ?? readFileSync(join(repositoryRoot, 'fixtures/openapi', file), 'utf8');
  return loadContract([`/api/${file}`], new MemoryFileSystem({ [`/api/${file}`]: content }));
}

function operation(contract: Contract, label: string): ContractOperation {
  const found = contract.operations.find((candidate) => candidate.label === label);
  if (found === undefined) throw new Error(`no operation ${label}`);
  return found;
}

const json = (value: unknown) => ({ text: JSON.stringify(value) });

test.describe('OpenAPI 3.0: the expanded petstore', () => {
  let contract: Contract;
  let checker: BodyChecker;
  test.beforeAll(async () => {
    contract = await contractOf('openapi-3.0-petstore-expanded.yaml');
    checker = await createBodyChecker(contract);
  });

  test('a response that matches its schema (allOf through $refs) is validated with no violation', () => {
    expect(checker.checkResponse(operation(contract, 'GET /pets'), 200, 'application/json; charset=utf-8', json([{ id: 1, name: 'rex' }]))).toEqual({ validated: true, violationCount: 0 });
  });

  test('each violation is named by its place in the body and its keyword, never its value', () => {
    const outcome = checker.checkResponse(operation(contract, 'GET /pets'), 200, 'application/json', json([{ id: 1, name: 'rex' }, { id: 'secret-value', tag: 7 }]));
    expect(outcome).toEqual({
      validated: true,
      violationCount: 3,
      violations: [
        { pointer: '/1/name', keyword: 'required' },
        { pointer: '/1/tag', keyword: 'type' },
        { pointer: '/1/id', keyword: 'type' },
      ],
    });
    expect(JSON.stringify(outcome)).not.toContain('secret-value');
  });

  test('a status the operation does not declare is checked against default', () => {
    expect(checker.checkResponse(operation(contract, 'GET /pets'), 500, 'application/json', json({ code: 500 }))).toEqual({
      validated: true,
      violationCount: 1,
      violations: [{ pointer: '/message', keyword: 'required' }],
    });
  });

  test('a request body sent as data is checked against the request body schema', () => {
    const addPet = operation(contract, 'POST /pets');
    expect(checker.checkRequest(addPet, undefined, { value: { name: 'rex' } })).toEqual({ validated: true, violationCount: 0 });
    expect(checker.checkRequest(addPet, undefined, { value: { tag: 'dog' } })).toEqual({ validated: true, violationCount: 1, violations: [{ pointer: '/name', keyword: 'required' }] });
    expect(checker.checkRequest(addPet, undefined, undefined)).toBeUndefined();
  });

  test('bodies not validated say why: not JSON, too large, empty where a schema is declared; JSON that does not parse is a violation', () => {
    const findPets = operation(contract, 'GET /pets');
    expect(checker.checkResponse(findPets, 200, 'text/html', { text: '<p>hi</p>' })).toEqual({ validated: false, reason: 'notJson' });
    expect(checker.checkResponse(findPets, 200, 'application/json', { text: `[${'1,'.repeat(BODY_VALIDATION_LIMIT_BYTES / 2)}1]` })).toEqual({ validated: false, reason: 'tooLarge' });
    expect(checker.checkResponse(findPets, 200, 'application/json', { text: '' })).toEqual({ validated: false, reason: 'emptyBody' });
    expect(checker.checkResponse(findPets, 200, 'application/json', { text: '{"name": "rex"' })).toEqual({ validated: true, violationCount: 1, violations: [{ pointer: '', keyword: 'json' }] });
  });

  test('a response with no body where none is declared has nothing to check', () => {
    expect(checker.checkResponse(operation(contract, 'DELETE /pets/{id}'), 204, undefined, { text: '' })).toBeUndefined();
  });
});

test('Swagger 2.0: response schemas under produces, and definitions through $ref', async () => {
  const contract = await contractOf('swagger-2.0-petstore-expanded.json');
  const checker = await createBodyChecker(contract);
  const findPets = operation(contract, 'GET /pets');
  expect(checker.checkResponse(findPets, 200, 'application/json', json([{ id: 1, name: 'rex' }]))).toEqual({ validated: true, violationCount: 0 });
  expect(checker.checkResponse(findPets, 200, 'application/json', json([{ id: 1 }]))).toEqual({ validated: true, violationCount: 1, violations: [{ pointer: '/0/name', keyword: 'required' }] });
});

const handMade = (schemas: string) => `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /users:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/User' }
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: { $ref: '#/components/schemas/User' }
            text/plain: {}
        '4XX':
          description: refused
components:
  schemas:
${schemas}`;

test("3.0's nullable and boolean exclusiveMinimum are read as 3.0 means them; a readOnly required property is not required of a request", async () => {
  const contract = await contractOf(
    'users.yaml',
    handMade(`    User:
      type: object
      required: [id, age]
      properties:
        id: { type: integer, readOnly: true }
        age: { type: integer, minimum: 0, exclusiveMinimum: true }
        nickname: { type: string, nullable: true }
        born: { type: string, format: date }`),
  );
  const checker = await createBodyChecker(contract);
  const post = operation(contract, 'POST /users');
  expect(checker.checkRequest(post, 'application/json', { value: { age: 3, nickname: null } })).toEqual({ validated: true, violationCount: 0 });
  expect(checker.checkResponse(post, 201, 'application/json', json({ age: 3 }))).toEqual({ validated: true, violationCount: 1, violations: [{ pointer: '/id', keyword: 'required' }] });
  expect(checker.checkResponse(post, 201, 'application/json', json({ id: 1, age: 0, born: 'yesterday' }))).toEqual({
    validated: true,
    violationCount: 2,
    violations: [
      { pointer: '/age', keyword: 'exclusiveMinimum' },
      { pointer: '/born', keyword: 'format' },
    ],
  });
  expect(checker.checkResponse(post, 201, 'text/plain', { text: 'ok' })).toEqual({ validated: false, reason: 'notJson' });
  expect(checker.checkResponse(post, 404, 'application/json', json({}))).toEqual({ validated: false, reason: 'noSchema' });
});

test('a schema the validator cannot compile is counted as unusable, not thrown', async () => {
  const contract = await contractOf('users.yaml', handMade(`    User: { type: object, properties: { name: { type: string, pattern: '(' } } }`));
  const checker = await createBodyChecker(contract);
  expect(checker.checkResponse(operation(contract, 'POST /users'), 201, 'application/json', json({ name: 'a' }))).toEqual({ validated: false, reason: 'schemaUnusable' });
});
