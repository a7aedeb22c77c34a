import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Condition coverage as the command gives it: a HAR file read with a
// contract, every count below counted by hand from the document and the
// entries; shards merged as a union; no value a call sent or got in any
// output.

const API = `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets:
    get:
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [available, sold] } }
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
        '400': { description: bad }
    post:
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - { type: object, required: [cat], properties: { cat: { type: string, maxLength: 5 } } }
                - { type: object, required: [dog], properties: { dog: { type: string } } }
      responses:
        '201': { description: made }
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        tag: { type: string }
        kind: { type: string, enum: [cat, dog] }
`;

function entry(method: string, url: string, status: number, response?: string, request?: string) {
  return {
    startedDateTime: '2026-01-01T00:00:00Z',
    time: 10,
    request: {
      method,
      url,
      headers: [],
      ...(request === undefined ? {} : { postData: { mimeType: 'application/json', text: request } }),
    },
    response: {
      status,
      content: response === undefined ? { mimeType: 'text/plain', text: '' } : { mimeType: 'application/json', text: response },
    },
    timings: {},
  };
}

const har = (...entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'hand', version: '1' }, entries } });

// SECRET marks values the calls sent or got: none may reach an output.
const FIRST_ENTRIES = [
  entry('GET', 'http://api.test/pets?limit=1&status=sold', 200, '[{"name":"SECRET-NAME","kind":"cat"}]'),
  entry('GET', 'http://api.test/pets?limit=101&q=SECRET-QUERY', 400, '{}'),
];
const SECOND_ENTRIES = [entry('POST', 'http://api.test/pets', 201, undefined, '{"cat":"abcde"}')];
const FIRST = har(...FIRST_ENTRIES);
const SECOND = har(...SECOND_ENTRIES);

interface Conditions {
  readonly conditionCount: number;
  readonly coveredConditionCount: number;
  readonly examinedCallCount: number;
  readonly unmet: readonly { readonly kind: string; readonly where: string }[];
}
interface Report {
  readonly contract: Conditions & {
    readonly conditionCoveragePercent: number | null;
    readonly operations: readonly { readonly endpoint: string; readonly conditions: Conditions }[];
  };
}

async function summarise(folder: string, inputs: readonly string[], output: string) {
  const outcome = await runProgram('src/cli/main.js', {
    args: [...inputs, '--openapi', 'api.yaml', '-o', output, '--formats', 'json,markdown,html'],
    cwd: folder,
  });
  expect([outcome.exitCode, outcome.stderr]).toStrictEqual([0, '']);
  return JSON.parse(await readFile(join(folder, output), 'utf8')) as Report;
}

const byOperation = (report: Report) =>
  report.contract.operations.map(({ endpoint, conditions }) => [
    endpoint,
    conditions.conditionCount,
    conditions.coveredConditionCount,
    conditions.examinedCallCount,
    conditions.unmet.map(({ kind, where }) => `${kind} ${where}`),
  ]);

// GET /pets declares 13 conditions: status and limit sent, status left out (limit is required), sold and available, statuses
// 200 and 400, Pet's optional tag and kind and kind's cat and dog, limit's minimum and maximum. Its two calls sent limit
// (both) and status (once), left status out (once), sent sold, got 200 and 400, a pet with a kind (cat) and no tag; limit=1
// reaches the minimum, limit=101 answered 400 oversteps the maximum: neither bound has both halves. 8 of 13.
// POST /pets declares 4: the two oneOf branches, 201, the cat's maxLength; its call matched the first branch, got 201, and
// reached maxLength 5 with no negative case: 2 of 4.
const EXPECTED = [
  [
    'GET /pets',
    13,
    8,
    2,
    [
      'enumValue #/paths/~1pets/get/parameters/0/schema/enum/0',
      'bound #/paths/~1pets/get/parameters/1/schema/minimum',
      'bound #/paths/~1pets/get/parameters/1/schema/maximum',
      'optionalProperty #/components/schemas/Pet/properties/tag',
      'enumValue #/components/schemas/Pet/properties/kind/enum/1',
    ],
  ],
  [
    'POST /pets',
    4,
    2,
    1,
    [
      'bound #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/0/properties/cat/maxLength',
      'branch #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1',
    ],
  ],
];

test('a HAR file read with a contract counts each operation’s conditions met, by hand', async () => {
  const folder = await createTemporaryFolder({ 'api.yaml': API, 'calls.har': har(...FIRST_ENTRIES, ...SECOND_ENTRIES) }, 'conditions');
  const report = await summarise(folder, ['calls.har'], 'out/q.json');
  expect(byOperation(report)).toStrictEqual(EXPECTED);
  expect([report.contract.conditionCount, report.contract.coveredConditionCount, report.contract.conditionCoveragePercent]).toStrictEqual([
    17, 10, 58.82,
  ]);
});

test('two shards merged count what either met, as the one run does', async () => {
  const folder = await createTemporaryFolder({ 'api.yaml': API, 'first.har': FIRST, 'second.har': SECOND }, 'conditions');
  await summarise(folder, ['first.har'], 'a/q.json');
  await summarise(folder, ['second.har'], 'b/q.json');
  const merged = await runProgram('src/cli/main.js', {
    args: ['merge', 'a/q.json', 'b/q.json', '--openapi', 'api.yaml', '-o', 'm/q.json', '--formats', 'json'],
    cwd: folder,
  });
  expect([merged.exitCode, merged.stderr]).toStrictEqual([0, '']);
  expect(byOperation(JSON.parse(await readFile(join(folder, 'm/q.json'), 'utf8')) as Report)).toStrictEqual(EXPECTED);
});

const BY_ID = `      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: ok } }
`;

test('records without conditions (another tool’s) still meet statuses and path parameters, and say none was examined', async () => {
  const folder = await createTemporaryFolder(
    {
      'api.yaml': API.replace('  /pets:\n', `  /pets/{id}:\n    get:\n${BY_ID}  /pets:\n`),
      'calls.json': JSON.stringify([{ endpoint: 'GET /pets/3', statusCode: 200, responseTimeMs: 4 }]),
    },
    'conditions',
  );
  const report = await summarise(folder, ['calls.json'], 'out/q.json');
  expect(byOperation(report)[0]).toStrictEqual(['GET /pets/{id}', 2, 2, 0, []]);
  expect(report.contract.examinedCallCount).toBe(0);
});

test('no value a call sent or got reaches the report, the Markdown or the page', async () => {
  const folder = await createTemporaryFolder({ 'api.yaml': API, 'calls.har': FIRST }, 'conditions');
  await summarise(folder, ['calls.har'], 'out/q.json');
  const outputs = await Promise.all(['json', 'md', 'html'].map((extension) => readFile(join(folder, `out/q.${extension}`), 'utf8')));
  expect(outputs.filter((output) => output.includes('SECRET'))).toStrictEqual([]);
});
