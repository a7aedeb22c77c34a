import ts from 'typescript';
import { conditionsOfOperation, type Condition } from '../src/contract/conditions.js';
import type { Contract } from '../src/contract/contract.js';
import { loadContract } from '../src/contract/loadContract.js';
import type { OperationConditionCoverage } from '../src/evaluation/conditionCoverage.js';
import { draftTests, type Drafts } from '../src/suggest/draftTests.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// Tests drafted for the gaps (issue 36): draftTests on hand-made documents
// and hand-made coverage (which conditions a run met), each group of gap
// with the test it drafts written out in full, read off the document by
// hand; the same inputs and seed give the same bytes; every value a drafted
// request sends is the document's, one of its bounds' neighbours, or made
// from the seed; no text of a document can break out of a literal or a
// comment.

// Parsing the drafts with the TypeScript compiler's parser: loading it takes 1 to 3 s on a loaded machine; 60 s each.
test.describe.configure({ timeout: 60_000 });

const API = `openapi: 3.1.0
info: { title: pets, version: '1' }
servers: [{ url: 'https://api.example.com/v1' }]
paths:
  /pets:
    get:
      tags: [pets]
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [available, sold] } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 20 } }
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
        '400': { description: a bad query }
    post:
      tags: [pets]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - $ref: '#/components/schemas/Cat'
                - $ref: '#/components/schemas/Dog'
      responses:
        '201': { description: made }
        '422': { description: invalid }
  /pets/{petId}:
    parameters:
      - { name: petId, in: path, required: true, schema: { type: integer } }
    get:
      tags: [pets]
      responses:
        '200': { description: the pet }
        '404': { description: no such pet }
  /owners/{ownerId}:
    get:
      tags: [owners]
      parameters:
        - { name: ownerId, in: path, required: true, example: 7, schema: { type: integer } }
      responses:
        '200': { description: the owner }
  /store/inventory:
    get:
      tags: [Store Front]
      security: [{ api_key: [] }]
      parameters:
        - { name: X-Request-Id, in: header, required: true, schema: { type: string } }
      responses:
        '200': { description: the stock }
        '401': { description: no key }
        '500': { description: broken }
components:
  securitySchemes:
    api_key: { type: apiKey, in: header, name: X-API-Key }
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        tag: { type: string }
    Cat:
      type: object
      required: [kind, name]
      properties:
        kind: { const: cat }
        name: { type: string, example: Tom, maxLength: 20 }
        lives: { type: integer, minimum: 1, maximum: 9 }
        nickname: { type: string }
    Dog:
      type: object
      required: [kind, name]
      properties:
        kind: { const: dog }
        name: { type: string, example: Rex }
`;

async function contractOf(text: string, file = 'api.yaml'): Promise<Contract> {
  return loadContract([`/api/${file}`], new MemoryFileSystem({ [`/api/${file}`]: text }));
}

/**
 * What a run did with one operation: its calls, and its conditions it did not meet (`where`, with ` sent` or
 * ` omitted` for a parameter, ` reached` or ` outside` for a bound's half).
 */
interface Run {
  readonly executionCount: number;
  readonly unmet: readonly string[];
  readonly examinedCallCount?: number;
  readonly otherList?: boolean;
}

/** Coverage made by hand: an operation the runs do not name, or never called, met nothing. */
function coverageOf(contract: Contract, runs: Readonly<Record<string, Run>>): OperationConditionCoverage[] {
  return contract.operations.map((operation, index) => {
    const { conditions, fingerprint } = conditionsOfOperation(contract, index);
    const run = runs[operation.label];
    const unmet = (condition: Condition, half?: string): boolean => {
      if (run === undefined || run.executionCount === 0) return true;
      const suffix = condition.kind === 'parameter' ? ` ${condition.case}` : half === undefined ? '' : ` ${half}`;
      return run.unmet.includes(`${condition.where}${suffix}`);
    };
    return {
      operation,
      conditions,
      covered: conditions.map((condition) =>
        condition.kind === 'bound' ? !unmet(condition, 'reached') && !unmet(condition, 'outside') : !unmet(condition),
      ),
      bounds: conditions.map((condition) =>
        condition.kind === 'bound' ? { reached: !unmet(condition, 'reached'), outside: !unmet(condition, 'outside') } : undefined,
      ),
      executionCount: run?.executionCount ?? 0,
      seenStatuses: [],
      examinedCallCount: run?.examinedCallCount ?? run?.executionCount ?? 0,
      otherList: run?.otherList ?? false,
      fingerprint,
    };
  });
}

/** Every operation of the API called and every condition met, but those the runs name. */
function allMetBut(contract: Contract, runs: Readonly<Record<string, Run>>): Record<string, Run> {
  return Object.fromEntries(contract.operations.map(({ label }) => [label, runs[label] ?? { executionCount: 1, unmet: [] }]));
}

function draft(contract: Contract, runs: Readonly<Record<string, Run>>, seed = 1): Drafts {
  return draftTests(contract, coverageOf(contract, allMetBut(contract, runs)), {
    seed,
    report: 'out/quality-summary.json',
    documents: ['api.yaml'],
  });
}

/** The tests of every drafted file, one text each, as drafted. */
function testsOf(drafts: Drafts): string[] {
  return drafts.files.flatMap((file) =>
    file.text
      .split('\n\n')
      .filter((part) => /^test(\.fixme)?\(/.test(part))
      .map((part) => part.trimEnd()),
  );
}

const HEADER = `// Drafted by quality-evidence suggest: a draft to review, not a finished test.
// From the report "out/quality-summary.json" and the OpenAPI document "api.yaml", with --seed 1. Each test sends
// a request built from the document to meet what the run never met, and asserts the status the document
// declares: check its values and its expected status before keeping it; a test.fixme says what to supply or
// arrange first. suggest replaces this file while its first line is the one above: to keep your changes, rename
// it (drop .suggested from its name).`;

test(`an operation never called is called with its required parameters and its credentials read from the \
environment, expecting its first 2XX status; its other statuses follow, one a test`, async () => {
  const drafts = draft(await contractOf(API), { 'GET /store/inventory': { executionCount: 0, unmet: [] } });
  expect(drafts.files.map(({ path, testCount, fixmeCount }) => [path, testCount, fixmeCount])).toEqual([
    ['store-front.suggested.spec.ts', 3, 1],
  ]);
  expect(drafts.files[0]?.text).toBe(`${HEADER}
// Set before running: X_REQUEST_ID (the header X-Request-Id of GET /store/inventory), API_KEY (the API key
// api_key (header X-API-Key)). They are read when a test runs, never written here.
import { test, expect } from 'quality-evidence/test';

/** A value the tests send, read from the environment, so that it is never written in this file. */
function fromEnvironment(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(\`Set the environment variable \${name}: these tests send it.\`);
  return value;
}

test('GET /store/inventory — operation never called', async ({ request }) => {
  // Covers: parameter sent #/paths/~1store~1inventory/get/parameters/0, status
  // #/paths/~1store~1inventory/get/responses/200.
  const response = await request.get('/v1/store/inventory', {
    headers: { 'X-Request-Id': fromEnvironment('X_REQUEST_ID'), 'X-API-Key': fromEnvironment('API_KEY') },
  });
  expect(response.status()).toBe(200);
});

test('GET /store/inventory without credentials — status 401 never seen', async ({ request }) => {
  // Covers: status #/paths/~1store~1inventory/get/responses/401.
  const response = await request.get('/v1/store/inventory', {
    headers: { 'X-Request-Id': fromEnvironment('X_REQUEST_ID') },
  });
  expect(response.status()).toBe(401);
});

test.fixme('GET /store/inventory — status 500 never seen', async ({ request }) => {
  // Covers: status #/paths/~1store~1inventory/get/responses/500.
  // Arrange what makes the server answer 500 to this request (the document says: broken), then remove .fixme.
  const response = await request.get('/v1/store/inventory', {
    headers: { 'X-Request-Id': fromEnvironment('X_REQUEST_ID'), 'X-API-Key': fromEnvironment('API_KEY') },
  });
  expect(response.status()).toBe(500);
});
`);
  expect([drafts.testCount, drafts.fixmeCount, drafts.notes]).toEqual([3, 1, []]);
});

test('an enum value of a query parameter never sent is sent, with nothing else the document does not require', async () => {
  const drafts = draft(await contractOf(API), {
    'GET /pets': { executionCount: 5, unmet: ['#/paths/~1pets/get/parameters/0/schema/enum/1'] },
  });
  expect(testsOf(drafts)).toEqual([
    `test('GET /pets?status=sold — enum value never sent', async ({ request }) => {
  // Covers: enumValue #/paths/~1pets/get/parameters/0/schema/enum/1.
  const response = await request.get('/v1/pets', { params: { status: 'sold' } });
  expect(response.status()).toBe(200);
});`,
  ]);
});

test('an optional parameter never sent is sent with its default, and those never left out are left out in one test', async () => {
  const drafts = draft(await contractOf(API), {
    'GET /pets': {
      executionCount: 5,
      unmet: ['#/paths/~1pets/get/parameters/0 omitted', '#/paths/~1pets/get/parameters/1 sent', '#/paths/~1pets/get/parameters/1 omitted'],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('GET /pets without status, limit — optional parameters never left out', async ({ request }) => {
  // Covers: parameter omitted #/paths/~1pets/get/parameters/0, parameter omitted #/paths/~1pets/get/parameters/1.
  const response = await request.get('/v1/pets');
  expect(response.status()).toBe(200);
});`,
    `test('GET /pets?limit=20 — optional parameter never sent', async ({ request }) => {
  // Covers: parameter sent #/paths/~1pets/get/parameters/1.
  const response = await request.get('/v1/pets', { params: { limit: 20 } });
  expect(response.status()).toBe(200);
});`,
  ]);
});

test('an optional parameter never sent is sent at a bound never reached, when it has one, rather than at its default', async () => {
  const drafts = draft(await contractOf(API), {
    'GET /pets': {
      executionCount: 5,
      unmet: ['#/paths/~1pets/get/parameters/1 sent', '#/paths/~1pets/get/parameters/1/schema/minimum reached'],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('GET /pets?limit=1 — optional parameter never sent', async ({ request }) => {
  // Covers: parameter sent #/paths/~1pets/get/parameters/1, bound #/paths/~1pets/get/parameters/1/schema/minimum
  // (the value at it).
  const response = await request.get('/v1/pets', { params: { limit: 1 } });
  expect(response.status()).toBe(200);
});`,
  ]);
});

test("a request body's oneOf branch never exercised is sent as a body of that branch, its const and examples the document's", async () => {
  const drafts = draft(await contractOf(API), {
    'POST /pets': {
      executionCount: 2,
      unmet: ['#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1', '#/components/schemas/Dog/properties/kind/const'],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('POST /pets with a body of oneOf branch 1 (Dog) — branch never exercised', async ({ request }) => {
  // Covers: branch #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1, enumValue
  // #/components/schemas/Dog/properties/kind/const.
  const response = await request.post('/v1/pets', { data: { kind: 'dog', name: 'Rex' } });
  expect(response.status()).toBe(201);
});`,
  ]);
});

test("a bound's unmet halves are drafted apart: a value just outside it expecting the operation's refusal, the value at it expecting success", async () => {
  const drafts = draft(await contractOf(API), {
    'POST /pets': {
      executionCount: 2,
      unmet: ['#/components/schemas/Cat/properties/lives/minimum outside', '#/components/schemas/Cat/properties/lives/maximum reached'],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('POST /pets with body.lives = 0 — minimum 1: a value outside never sent', async ({ request }) => {
  // Covers: bound #/components/schemas/Cat/properties/lives/minimum (a value outside).
  const response = await request.post('/v1/pets', { data: { kind: 'cat', name: 'Tom', lives: 0 } });
  expect(response.status()).toBe(422);
});`,
    `test('POST /pets with body.lives = 9 — maximum 9 never reached', async ({ request }) => {
  // Covers: bound #/components/schemas/Cat/properties/lives/maximum (the value at it).
  const response = await request.post('/v1/pets', { data: { kind: 'cat', name: 'Tom', lives: 9 } });
  expect(response.status()).toBe(201);
});`,
  ]);
});

test(`a status never seen is drafted where a request can get it (a value outside a bound, a body without a required \
property), else as a fixme naming what to arrange and what to supply`, async () => {
  const drafts = draft(await contractOf(API), {
    'GET /pets': { executionCount: 5, unmet: ['#/paths/~1pets/get/responses/400'] },
    'POST /pets': { executionCount: 2, unmet: ['#/paths/~1pets/post/responses/422'] },
    'GET /pets/{petId}': { executionCount: 2, unmet: ['#/paths/~1pets~1%7BpetId%7D/get/responses/404'] },
  });
  expect(testsOf(drafts)).toEqual([
    `test('GET /pets?limit=0 (outside minimum 1) — status 400 never seen', async ({ request }) => {
  // Covers: status #/paths/~1pets/get/responses/400.
  const response = await request.get('/v1/pets', { params: { limit: 0 } });
  expect(response.status()).toBe(400);
});`,
    `test('POST /pets without body.kind — status 422 never seen', async ({ request }) => {
  // Covers: status #/paths/~1pets/post/responses/422.
  const response = await request.post('/v1/pets', { data: { name: 'Tom' } });
  expect(response.status()).toBe(422);
});`,
    `test.fixme('GET /pets/{petId} — status 404 never seen', async ({ request }) => {
  // Covers: status #/paths/~1pets~1%7BpetId%7D/get/responses/404.
  // To run it: supply petId, the path parameter of GET /pets/{petId} (#/paths/~1pets~1%7BpetId%7D/parameters/0): a
  // value the server knows (an id a test makes first, or one your data holds); then remove .fixme.
  // Arrange what makes the server answer 404 to this request (the document says: no such pet), then remove .fixme.
  const petId = '';
  const response = await request.get(\`/v1/pets/\${encodeURIComponent(petId)}\`);
  expect(response.status()).toBe(404);
});`,
  ]);
});

test("a path parameter is the document's example where it gives one, and a value to supply (a fixme) where it does not", async () => {
  const drafts = draft(await contractOf(API), {
    'GET /owners/{ownerId}': { executionCount: 0, unmet: [] },
    'GET /pets/{petId}': { executionCount: 0, unmet: [] },
  });
  expect(testsOf(drafts)).toEqual([
    `test.fixme('GET /pets/{petId} — operation never called', async ({ request }) => {
  // Covers: parameter sent #/paths/~1pets~1%7BpetId%7D/parameters/0, status
  // #/paths/~1pets~1%7BpetId%7D/get/responses/200.
  // To run it: supply petId, the path parameter of GET /pets/{petId} (#/paths/~1pets~1%7BpetId%7D/parameters/0): a
  // value the server knows (an id a test makes first, or one your data holds); then remove .fixme.
  const petId = '';
  const response = await request.get(\`/v1/pets/\${encodeURIComponent(petId)}\`);
  expect(response.status()).toBe(200);
});`,
    `test.fixme('GET /pets/{petId} — status 404 never seen', async ({ request }) => {
  // Covers: status #/paths/~1pets~1%7BpetId%7D/get/responses/404.
  // To run it: supply petId, the path parameter of GET /pets/{petId} (#/paths/~1pets~1%7BpetId%7D/parameters/0): a
  // value the server knows (an id a test makes first, or one your data holds); then remove .fixme.
  // Arrange what makes the server answer 404 to this request (the document says: no such pet), then remove .fixme.
  const petId = '';
  const response = await request.get(\`/v1/pets/\${encodeURIComponent(petId)}\`);
  expect(response.status()).toBe(404);
});`,
    `test('GET /owners/{ownerId} — operation never called', async ({ request }) => {
  // Covers: parameter sent #/paths/~1owners~1%7BownerId%7D/get/parameters/0, status
  // #/paths/~1owners~1%7BownerId%7D/get/responses/200.
  const response = await request.get('/v1/owners/7');
  expect(response.status()).toBe(200);
});`,
  ]);
  expect(drafts.files.map(({ path, testCount, fixmeCount }) => [path, testCount, fixmeCount])).toEqual([
    ['pets.suggested.spec.ts', 2, 2],
    ['owners.suggested.spec.ts', 1, 0],
  ]);
});

test("a response's conditions never met, which no request can choose, are one fixme per status listing each by its place", async () => {
  const drafts = draft(await contractOf(API), {
    'GET /pets': { executionCount: 5, unmet: ['#/components/schemas/Pet/properties/tag'] },
  });
  expect(testsOf(drafts)).toEqual([
    `test.fixme('GET /pets — response 200 conditions never met', async ({ request }) => {
  // Covers: optionalProperty #/components/schemas/Pet/properties/tag.
  // Arrange for the server to answer this request with a 200 whose body holds what each line names, then remove
  // .fixme:
  // - optional property tag at #/components/schemas/Pet/properties/tag
  const response = await request.get('/v1/pets');
  expect(response.status()).toBe(200);
});`,
  ]);
});

test('optional properties of a request body never sent are sent together, with values from the document and else from the seed', async () => {
  const drafts = draft(await contractOf(API), {
    'POST /pets': {
      executionCount: 2,
      unmet: ['#/components/schemas/Cat/properties/lives', '#/components/schemas/Cat/properties/nickname'],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('POST /pets with body.lives, body.nickname — optional properties never sent', async ({ request }) => {
  // Covers: optionalProperty #/components/schemas/Cat/properties/lives, optionalProperty
  // #/components/schemas/Cat/properties/nickname.
  const response = await request.post('/v1/pets', {
    data: { kind: 'cat', name: 'Tom', lives: 5, nickname: 'wvfeqfrn' },
  });
  expect(response.status()).toBe(201);
});`,
  ]);
});

test('a title names three of the optional properties or parameters a test is for, then how many more; its comment names each', async () => {
  const contract = await contractOf(`openapi: 3.1.0
info: { title: many, version: '1' }
paths:
  /things:
    post:
      parameters:
        - { name: a, in: query, schema: { type: boolean, default: true } }
        - { name: b, in: query, schema: { type: boolean, default: true } }
        - { name: c, in: query, schema: { type: boolean, default: true } }
        - { name: d, in: query, schema: { type: boolean, default: true } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: { p: { const: 1 }, q: { const: 2 }, r: { const: 3 }, s: { const: 4 }, t: { const: 5 } }
      responses:
        '204': { description: done }
`);
  const where = (name: string) => `#/paths/~1things/post/requestBody/content/application~1json/schema/properties/${name}`;
  const drafts = draft(contract, {
    'POST /things': {
      executionCount: 1,
      unmet: [0, 1, 2, 3].map((index) => `#/paths/~1things/post/parameters/${index} omitted`).concat(['p', 'q', 'r', 's', 't'].map(where)),
    },
  });
  expect(testsOf(drafts).map((text) => text.split('\n').slice(0, 3))).toEqual([
    [
      "test('POST /things without a, b, c and 1 more — optional parameters never left out', async ({ request }) => {",
      '  // Covers: parameter omitted #/paths/~1things/post/parameters/0, parameter omitted',
      '  // #/paths/~1things/post/parameters/1, parameter omitted #/paths/~1things/post/parameters/2, parameter omitted',
    ],
    [
      "test('POST /things with body.p, body.q, body.r and 2 more — optional properties never sent', async ({ request }) => {",
      `  // Covers: optionalProperty ${where('p')},`,
      `  // optionalProperty ${where('q')},`,
    ],
  ]);
});

test('the same contract, coverage and seed draft the same bytes; another seed changes only the values the document does not give', async () => {
  const contract = await contractOf(API);
  const runs = allMetBut(contract, {});
  const everything = Object.fromEntries(Object.keys(runs).map((label) => [label, { executionCount: 0, unmet: [] }]));
  const first = draft(contract, everything);
  const again = draft(await contractOf(API), everything);
  expect(again).toEqual(first);
  const other = draft(contract, everything, 2);
  const lines = (drafts: Drafts) => drafts.files.flatMap((file) => file.text.split('\n'));
  const changed = lines(first).flatMap((line, index) => (line === lines(other)[index] ? [] : [[line, lines(other)[index]]]));
  const header = (seed: number) =>
    `// From the report "out/quality-summary.json" and the OpenAPI document "api.yaml", with --seed ${seed}. Each test sends`;
  const post = (name: string) => `  const response = await request.post('/v1/pets', { data: { kind: 'cat', name: '${name}' } });`;
  // Three files' headers; the name just outside maxLength 20 and at it (one seeded letter repeated); the nickname no example gives.
  expect(changed).toEqual([
    [header(1), header(2)],
    [post('n'.repeat(21)), post('u'.repeat(21))],
    [post('n'.repeat(20)), post('u'.repeat(20))],
    [
      "    data: { kind: 'cat', name: 'Tom', lives: 5, nickname: 'wvfeqfrn' },",
      "    data: { kind: 'cat', name: 'Tom', lives: 2, nickname: 'ed7u5qhp' },",
    ],
    [header(1), header(2)],
    [header(1), header(2)],
  ]);
});

/** A drafted file parsed by TypeScript, refused if it has a syntax error. */
function parse(text: string): ts.SourceFile {
  const { diagnostics = [] } = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
  expect(diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))).toEqual([]);
  return ts.createSourceFile('draft.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The paths and the values each drafted request sends: the literals of its call's arguments (a variable read from the environment left out). */
function requestsOf(file: ts.SourceFile): { readonly path: string; readonly values: (string | number)[] }[] {
  const requests: { path: string; values: (string | number)[] }[] = [];
  const valuesIn = (node: ts.Node, values: (string | number)[]): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fromEnvironment') return;
    if (ts.isPropertyAssignment(node)) {
      valuesIn(node.initializer, values);
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) values.push(node.text);
    else if (ts.isNumericLiteral(node)) values.push(Number(node.text));
    else if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand))
      values.push(-Number(node.operand.text));
    else
      ts.forEachChild(node, (child) => {
        valuesIn(child, values);
      });
  };
  const visit = (node: ts.Node): void => {
    const callee = ts.isCallExpression(node) ? node.expression : undefined;
    if (callee !== undefined && ts.isPropertyAccessExpression(callee) && callee.expression.getText() === 'request') {
      const [path, ...rest] = (node as ts.CallExpression).arguments;
      const values: (string | number)[] = [];
      for (const argument of rest) valuesIn(argument, values);
      requests.push({ path: path === undefined ? '' : path.getText(), values });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return requests;
}

/** Every string and number of a document, keys too, and each number's neighbours (a value just outside a bound). */
function documentLiterals(document: unknown): Set<string | number> {
  const literals = new Set<string | number>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') literals.add(value);
    else if (typeof value === 'number') for (const near of [value - 1, value, value + 1]) literals.add(near);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) {
        literals.add(key);
        visit(item);
      }
  };
  visit(document);
  return literals;
}

test(`every value a drafted request sends is the document’s own (or a neighbour of one of its bounds), or changes \
with the seed: nothing else reaches a draft`, async () => {
  const contract = await contractOf(API);
  const everything = Object.fromEntries(contract.operations.map(({ label }) => [label, { executionCount: 0, unmet: [] }]));
  const seeds = [1, 2, 3, 4];
  const requests = seeds.map((seed) => draft(contract, everything, seed).files.flatMap((file) => requestsOf(parse(file.text))));
  const literals = documentLiterals(contract.documents[0]?.bundled);
  const fromDocument: (string | number)[] = [];
  const seeded: (string | number)[] = [];
  requests[0]!.forEach(({ path, values }, index) => {
    // The same request in every draft, its path a base path and a path of the document, a value in it spelled from the document.
    expect(requests.map((drafted) => drafted[index]?.path)).toEqual(seeds.map(() => path));
    expect(path).toMatch(/^['`]\/v1\/(pets|owners\/7|store\/inventory|pets\/\$\{encodeURIComponent\(petId\)\})['`]$/);
    values.forEach((value, at) => {
      if (requests.every((drafted) => drafted[index]?.values[at] === value)) fromDocument.push(value);
      else seeded.push(value);
    });
  });
  expect(fromDocument.filter((value) => !literals.has(value))).toEqual([]);
  expect(fromDocument.length).toBeGreaterThan(20);
  // The letter a name past and at its maxLength is made of, and the lives and nickname no example gives.
  expect(seeded).toEqual(['n'.repeat(21), 'n'.repeat(20), 5, 'wvfeqfrn']);
});

const HOSTILE = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'hostile', version: '1' },
  paths: {
    '/things/{id}': {
      post: {
        tags: ['evil\n// tag */ `${x}`'],
        parameters: [
          { name: 'id', in: 'path', required: true, example: "a/b c'\n", schema: { type: 'string' } },
          {
            name: "q'\n`${process.exit(1)}`",
            in: 'query',
            required: true,
            schema: { type: 'string', enum: ["it's", 'x\u2028y', '${1}`\\', '\ud800'] },
          },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['__proto__', 'line\nbreak'],
                properties: { ['__proto__']: { type: 'string', example: 'p' }, 'line\nbreak': { type: 'string', example: '*/ evil()' } },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' }, '500': { description: 'boom\n})\nprocess.exit(1)\n//' } },
      },
    },
  },
});

test(`no text of a document or a report's name leaves its literal or its comment: quotes, line breaks, U+2028, \
template syntax, a lone surrogate and __proto__ all stay the document's values`, async () => {
  const contract = await contractOf(HOSTILE, 'hostile.json');
  const drafts = draftTests(contract, coverageOf(contract, {}), {
    seed: 1,
    report: 'out\nprocess.exit(1)\n/quality-summary.json',
    documents: ['hostile.json'],
  });
  expect(drafts.files.map(({ path, testCount, fixmeCount }) => [path, testCount, fixmeCount])).toEqual([
    ['evil-tag-x.suggested.spec.ts', 5, 1],
  ]);
  const file = parse(drafts.files[0]!.text);
  const titles = file.statements.map((statement) => {
    const call = ts.isExpressionStatement(statement) ? statement.expression : undefined;
    if (call === undefined || !ts.isCallExpression(call)) return ts.SyntaxKind[statement.kind];
    const [title] = call.arguments;
    return `${call.expression.getText()}: ${title !== undefined && ts.isStringLiteral(title) ? title.text : '?'}`;
  });
  expect(titles).toEqual([
    'ImportDeclaration',
    'test: POST /things/{id} — operation never called',
    "test: POST /things/{id}?q'\\u000a`${process.exit(1)}`=x\\u2028y — enum value never sent",
    "test: POST /things/{id}?q'\\u000a`${process.exit(1)}`=${1}`\\ — enum value never sent",
    "test: POST /things/{id}?q'\\u000a`${process.exit(1)}`=\\ud800 — enum value never sent",
    'test.fixme: POST /things/{id} — status 500 never seen',
  ]);
  const requests = requestsOf(file);
  expect(requests.map(({ path }) => path)).toEqual(requests.map(() => "'/things/a%2Fb%20c\\'%0A'"));
  // Each request's query value and body, as the document gives them.
  expect(requests.map(({ values }) => values)).toEqual(
    ["it's", 'x\u2028y', '${1}`\\', '\ud800', "it's"].map((value) => [value, 'p', '*/ evil()']),
  );
  const data = drafts.files[0]!.text.match(/data: \{ (.*) \}/)?.[1];
  expect(data).toBe("['__proto__']: 'p', 'line\\u000abreak': '*/ evil()'");
  // Every line outside the tests' code is a comment or the import.
  expect(drafts.files[0]!.text.split('\n').slice(0, 8)).toEqual([
    '// Drafted by quality-evidence suggest: a draft to review, not a finished test.',
    '// From the report "out\\nprocess.exit(1)\\n/quality-summary.json" and the OpenAPI document "hostile.json", with',
    '// --seed 1. Each test sends a request built from the document to meet what the run never met, and asserts the',
    '// status the document declares: check its values and its expected status before keeping it; a test.fixme says',
    '// what to supply or arrange first. suggest replaces this file while its first line is the one above: to keep',
    '// your changes, rename it (drop .suggested from its name).',
    "import { test, expect } from 'quality-evidence/test';",
    '',
  ]);
  expect(drafts.files[0]!.text).toContain(
    '  // Arrange what makes the server answer 500 to this request (the document says:\n' +
      '  // boom\\u000a})\\u000aprocess.exit(1)\\u000a//), then remove .fixme.\n',
  );
});

test(`an operation whose calls were recorded with another version of the document, or said nothing of what they \
met, gets its statuses drafted only, and a note says why`, async () => {
  const contract = await contractOf(API);
  const drafts = draft(contract, {
    'GET /pets': {
      executionCount: 3,
      otherList: true,
      unmet: ['#/paths/~1pets/get/parameters/0/schema/enum/1', '#/paths/~1pets/get/responses/400'],
    },
    'POST /pets': {
      executionCount: 2,
      examinedCallCount: 0,
      unmet: ['#/components/schemas/Cat/properties/lives', '#/paths/~1pets/post/responses/422'],
    },
  });
  expect(testsOf(drafts).map((text) => text.split('\n')[0])).toEqual([
    "test('GET /pets?limit=0 (outside minimum 1) — status 400 never seen', async ({ request }) => {",
    "test('POST /pets without body.kind — status 422 never seen', async ({ request }) => {",
  ]);
  expect(drafts.notes).toEqual([
    'GET /pets: its calls were recorded with another version of the document: only its statuses are drafted for',
    'POST /pets: none of its calls said which conditions they met: only its statuses are drafted for',
  ]);
});

test(`a file per tag, named after the operation's first tag in lower case letters, digits and dashes; untagged \
operations in untagged; two tags of one name apart`, async () => {
  const operation = (tags: string) => `{ ${tags}responses: { '200': { description: ok } } }`;
  const contract = await contractOf(`openapi: 3.1.0
info: { title: tags, version: '1' }
paths:
  /a: { get: ${operation('tags: [Pets, store], ')} }
  /b: { get: ${operation("tags: ['pets!'], ")} }
  /c: { get: ${operation('')} }
  /d: { get: ${operation("tags: ['Ünïcödé Stuff'], ")} }
  /e: { get: ${operation("tags: ['宠物'], ")} }
  /f: { get: ${operation('tags: [Pets], ')} }
`);
  expect(
    draftTests(contract, coverageOf(contract, {}), { seed: 1, report: 'r.json', documents: ['api.yaml'] }).files.map((file) => [
      file.path,
      testsOf({ files: [file], testCount: 0, fixmeCount: 0, notes: [] }).map((text) => text.split("'")[1]),
    ]),
  ).toEqual([
    ['pets.suggested.spec.ts', ['GET /a — operation never called', 'GET /f — operation never called']],
    ['pets-2.suggested.spec.ts', ['GET /b — operation never called']],
    ['untagged.suggested.spec.ts', ['GET /c — operation never called']],
    ['unicode-stuff.suggested.spec.ts', ['GET /d — operation never called']],
    ['tag.suggested.spec.ts', ['GET /e — operation never called']],
  ]);
});

const SWAGGER = `swagger: '2.0'
info: { title: pets, version: '1' }
basePath: /api
paths:
  /pets:
    get:
      parameters:
        - { name: tags, in: query, type: array, collectionFormat: multi, items: { type: string, enum: [small, large] } }
      responses: { '200': { description: ok } }
    post:
      parameters:
        - in: body
          name: pet
          required: true
          schema: { type: object, required: [name], properties: { name: { type: string, example: Rex }, tag: { type: string } } }
      responses: { '201': { description: made }, '400': { description: invalid } }
  /upload:
    post:
      consumes: [multipart/form-data]
      parameters:
        - { name: note, in: formData, type: string, required: true, default: hi }
        - { name: file, in: formData, type: file, required: true }
      responses: { '200': { description: stored } }
`;

test('Swagger 2.0: a list sent as the parameter repeated, a body parameter without its required property, a file to upload left to the reviewer', async () => {
  const contract = await contractOf(SWAGGER);
  const drafts = draft(contract, {
    'GET /pets': { executionCount: 1, unmet: ['#/paths/~1pets/get/parameters/0/items/enum/1'] },
    'POST /pets': { executionCount: 1, unmet: ['#/paths/~1pets/post/responses/400'] },
    'POST /upload': { executionCount: 0, unmet: [] },
  });
  expect(testsOf(drafts)).toEqual([
    `test('GET /pets?tags=large — enum value never sent', async ({ request }) => {
  // Covers: enumValue #/paths/~1pets/get/parameters/0/items/enum/1.
  const response = await request.get('/api/pets?tags=large');
  expect(response.status()).toBe(200);
});`,
    `test('POST /pets without body.name — status 400 never seen', async ({ request }) => {
  // Covers: status #/paths/~1pets/post/responses/400.
  const response = await request.post('/api/pets', { data: {} });
  expect(response.status()).toBe(400);
});`,
    `test.fixme('POST /upload — operation never called', async ({ request }) => {
  // Covers: parameter sent #/paths/~1upload/post/parameters/0, parameter sent #/paths/~1upload/post/parameters/1,
  // status #/paths/~1upload/post/responses/200.
  // To run it: supply a file to upload as the form field file, which the draft does not make; then remove .fixme.
  const response = await request.post('/api/upload', { multipart: { note: 'hi', file: '' } });
  expect(response.status()).toBe(200);
});`,
  ]);
});

test('a schema that requires itself twice over (a tree) is drafted at once, nested in itself once, then null where it would never end', async () => {
  const contract = await contractOf(`openapi: 3.1.0
info: { title: trees, version: '1' }
paths:
  /trees:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Tree' }
      responses:
        '201': { description: planted }
components:
  schemas:
    Tree:
      type: object
      required: [name, left, right]
      properties:
        name: { type: string, example: oak }
        left: { $ref: '#/components/schemas/Tree' }
        right: { $ref: '#/components/schemas/Tree' }
        parent: { $ref: '#/components/schemas/Tree' }
`);
  const started = performance.now();
  const drafts = draftTests(contract, coverageOf(contract, {}), { seed: 1, report: 'r.json', documents: ['api.yaml'] });
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(testsOf(drafts)).toEqual([
    `test('POST /trees — operation never called', async ({ request }) => {
  // Covers: status #/paths/~1trees/post/responses/201.
  const response = await request.post('/trees', {
    data: {
      name: 'oak',
      left: { name: 'oak', left: null, right: null },
      right: { name: 'oak', left: null, right: null },
    },
  });
  expect(response.status()).toBe(201);
});`,
    `test('POST /trees with body.parent — optional property never sent', async ({ request }) => {
  // Covers: optionalProperty #/components/schemas/Tree/properties/parent.
  const response = await request.post('/trees', {
    data: {
      name: 'oak',
      left: { name: 'oak', left: null, right: null },
      right: { name: 'oak', left: null, right: null },
      parent: { name: 'oak', left: null, right: null },
    },
  });
  expect(response.status()).toBe(201);
});`,
  ]);
});

test("a request body's branch made of a base schema and its own part (allOf) is drafted whole, the discriminator's name for it set", async () => {
  const contract = await contractOf(`openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - $ref: '#/components/schemas/Dog'
                - $ref: '#/components/schemas/Cat'
              discriminator:
                propertyName: kind
                mapping: { dog: '#/components/schemas/Dog', cat: '#/components/schemas/Cat' }
      responses:
        '201': { description: made }
components:
  schemas:
    Pet:
      type: object
      required: [kind, name]
      properties:
        kind: { type: string }
        name: { type: string, example: Rex }
    Dog:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - { type: object, required: [barks], properties: { barks: { type: boolean, example: true } } }
    Cat:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - { type: object, required: [lives], properties: { lives: { type: integer, example: 9 } } }
`);
  const drafts = draft(contract, {
    'POST /pets': { executionCount: 1, unmet: ['#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1'] },
  });
  expect(testsOf(drafts)).toEqual([
    `test('POST /pets with a body of oneOf branch 1 (Cat) — branch never exercised', async ({ request }) => {
  // Covers: branch #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1.
  const response = await request.post('/pets', { data: { kind: 'cat', name: 'Rex', lives: 9 } });
  expect(response.status()).toBe(201);
});`,
  ]);
});

test('an operation drafts 250 tests at most, and a note says how many of its gaps were left', async () => {
  const values = Array.from({ length: 1000 }, (_, index) => `v${index}`);
  const contract = await contractOf(
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'enum', version: '1' },
      paths: {
        '/things': {
          get: {
            parameters: [{ name: 'kind', in: 'query', required: true, schema: { type: 'string', enum: values } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    }),
    'api.json',
  );
  const drafts = draft(contract, { 'GET /things': { executionCount: 0, unmet: [] } });
  expect([drafts.testCount, drafts.notes]).toEqual([
    250,
    ['GET /things: 250 tests drafted, the most for one operation; 750 of its gaps are not drafted for'],
  ]);
});

test(`a value sought under additionalProperties gets one such property, an example beside it set aside; one no request \
built from the document reaches is not drafted, and a note names it`, async () => {
  const contract = await contractOf(`openapi: 3.1.0
info: { title: plans, version: '1' }
paths:
  /plans:
    put:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                tags: { type: array, maxItems: 0, items: { enum: [x] } }
                limits: { type: object, example: { basic: free }, additionalProperties: { enum: [free, paid] } }
      responses:
        '204': { description: stored }
`);
  const schema = '#/paths/~1plans/put/requestBody/content/application~1json/schema';
  const drafts = draft(contract, {
    'PUT /plans': {
      executionCount: 1,
      unmet: [`${schema}/properties/tags/items/enum/0`, `${schema}/properties/limits/additionalProperties/enum/1`],
    },
  });
  expect(testsOf(drafts)).toEqual([
    `test('PUT /plans with body.limits.wekbntun = "paid" — enum value never sent', async ({ request }) => {
  // Covers: enumValue
  // ${schema}/properties/limits/additionalProperties/enum/1.
  const response = await request.put('/plans', { data: { limits: { wekbntun: 'paid' } } });
  expect(response.status()).toBe(204);
});`,
  ]);
  expect(drafts.notes).toEqual([
    `PUT /plans: 1 of its gaps is not drafted for, as no request built from the document reaches them: enumValue ${schema}/properties/tags/items/enum/0`,
  ]);
});
