import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Body conformance in a real Playwright run: the recording fixture checks
// each call's bodies against the contract the reporter is given, and the
// report counts the outcomes per endpoint and per operation. No value from a
// body reaches any output.

// A Playwright run of its own in each test or hook (a few seconds of CPU; 8 to 27 s measured on a loaded machine): 120 s each.
test.describe.configure({ timeout: 120_000 });

/** The expanded petstore (fixtures/openapi), whose server URL's path is /v2, on 127.0.0.1; one pet answers off its schema. */
async function startPetstore(): Promise<{ baseURL: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const route = `${request.method ?? ''} ${(request.url ?? '').split('?')[0] ?? ''}`;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (route === 'GET /v2/pets') json(200, [{ id: 1, name: 'rex' }]);
    else if (route === 'GET /v2/pets/1') json(200, { id: 'SECRET-RESPONSE-VALUE', tag: 5 });
    else if (route === 'POST /v2/pets') json(200, { id: 2, name: 'rex' });
    else if (route === 'DELETE /v2/pets/1') response.writeHead(204).end();
    else json(404, { code: 404, message: 'no such route' });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => {
          closed();
        });
      }),
  };
}

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', openapi: 'petstore.yaml' }]],
});
`;

const spec = `import { test, expect } from 'quality-evidence/test';

test('lists pets', async ({ request }) => {
  expect((await request.get('/v2/pets?limit=5')).status()).toBe(200);
});

test('finds a pet', async ({ request }) => {
  expect((await request.get('/v2/pets/1')).status()).toBe(200);
});

test('adds pets', async ({ request }) => {
  expect((await request.post('/v2/pets', { data: { name: 'rex' } })).status()).toBe(200);
  expect((await request.post('/v2/pets', { data: { tag: 'SECRET-REQUEST-VALUE' } })).status()).toBe(200);
});

test('adds pets from a form', async ({ request }) => {
  expect((await request.post('/v2/pets', { form: { name: 'SECRET-FORM-VALUE' } })).status()).toBe(200);
  expect((await request.post('/v2/pets', { multipart: { name: 'SECRET-MULTIPART-VALUE' } })).status()).toBe(200);
});

test("a checked response reads as Playwright's own", async ({ request }) => {
  const response = await request.get('/v2/pets');
  await expect(response).toBeOK();
  expect(await response.json()).toEqual([{ id: 1, name: 'rex' }]);
  expect(await response.text()).toBe('[{"id":1,"name":"rex"}]');
  expect((await response.body()).length).toBe(23);
  await response.dispose();
  await expect(response.body()).rejects.toThrow();
});

test('deletes a pet', async ({ request }) => {
  expect((await request.delete('/v2/pets/1')).status()).toBe(204);
});
`;

test.describe('a run with a contract checks every body it can', () => {
  let project: string;
  let outcome: Awaited<ReturnType<typeof runPlaywright>>;

  test.beforeAll(async () => {
    const server = await startPetstore();
    project = await createPlaywrightProject({
      'playwright.config.ts': config,
      'petstore.yaml': await readFile(join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml'), 'utf8'),
      'tests/pets.spec.ts': spec,
    });
    outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });
    await server.close();
  });

  test(`each endpoint counts its bodies validated, those off their schema with the places and keywords that broke, and those \
sent as a form or multipart as not JSON`, async () => {
    expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/quality-summary.json'));
    expect(Object.fromEntries(report.endpoints.map(({ endpoint, bodies }) => [endpoint, bodies]))).toEqual({
      'DELETE /pets/{id}': undefined,
      'GET /pets': { validatedCount: 2, schemaViolationCount: 0, notValidatedCount: 0, notValidatedReasons: {}, topViolations: [] },
      'GET /pets/{id}': {
        validatedCount: 1,
        schemaViolationCount: 1,
        notValidatedCount: 0,
        notValidatedReasons: {},
        topViolations: [
          { body: 'response', pointer: '/id', keyword: 'type', count: 1 },
          { body: 'response', pointer: '/name', keyword: 'required', count: 1 },
          { body: 'response', pointer: '/tag', keyword: 'type', count: 1 },
        ],
      },
      'POST /pets': {
        validatedCount: 6,
        schemaViolationCount: 1,
        notValidatedCount: 2,
        notValidatedReasons: { notJson: 2 },
        topViolations: [{ body: 'request', pointer: '/name', keyword: 'required', count: 1 }],
      },
    });
  });

  test('the contract section gives the same counts per operation, and in all', async () => {
    const { contract } = await readReport(join(project, 'out/quality-summary.json'));
    expect(
      contract?.operations.map(({ endpoint, validatedCount, schemaViolationCount, notValidatedCount }) => [
        endpoint,
        validatedCount,
        schemaViolationCount,
        notValidatedCount,
      ]),
    ).toEqual([
      ['GET /pets', 2, 0, 0],
      ['POST /pets', 6, 1, 2],
      ['GET /pets/{id}', 1, 1, 0],
      ['DELETE /pets/{id}', 0, 0, 0],
    ]);
    expect([contract?.validatedCount, contract?.schemaViolationCount, contract?.notValidatedCount]).toEqual([9, 2, 2]);
  });

  test('each operation counts the conditions its calls met, examined in the test worker, and names those they did not', async () => {
    const { contract } = await readReport(join(project, 'out/quality-summary.json'));
    // Counted by hand from the document and the spec: GET /pets declares tags and limit (each sent, and left out: neither is
    // required), status 200 (default is none) and Pet's optional tag in its response (name and id are required through allOf);
    // its calls sent limit once and no tags, and no pet they got had a tag. POST /pets: NewPet's tag in the request (sent once),
    // status 200, Pet's tag in the response (never). GET /pets/{id}: id, 200, and the tag its one response had (of the wrong type,
    // but present). DELETE /pets/{id}: id and 204.
    expect(
      contract?.operations.map(({ endpoint, conditions }) => [
        endpoint,
        conditions.conditionCount,
        conditions.coveredConditionCount,
        conditions.examinedCallCount,
        conditions.unmet.map((condition) => `${condition.kind} ${condition.where}`),
      ]),
    ).toEqual([
      ['GET /pets', 6, 4, 2, ['parameter #/paths/~1pets/get/parameters/0', 'optionalProperty #/components/schemas/NewPet/properties/tag']],
      ['POST /pets', 3, 2, 4, ['optionalProperty #/components/schemas/NewPet/properties/tag']],
      ['GET /pets/{id}', 3, 3, 1, []],
      ['DELETE /pets/{id}', 2, 2, 1, []],
    ]);
    expect(contract?.operations[1]?.conditions.unmet).toEqual([
      { kind: 'optionalProperty', where: '#/components/schemas/NewPet/properties/tag', name: 'tag', direction: 'response', status: '200' },
    ]);
    expect([
      contract?.conditionCount,
      contract?.coveredConditionCount,
      contract?.conditionCoveragePercent,
      contract?.examinedCallCount,
    ]).toEqual([14, 11, 78.57, 8]);
  });

  test("the response a checked call returns reads as Playwright's own: body, text, json, toBeOK, and it refuses once disposed", async () => {
    const report = await readReport(join(project, 'out/quality-summary.json'));
    expect(report.tests).toEqual({ total: 6, passed: 6, failed: 0, flaky: 0, skipped: 0 });
  });

  test('no value from a body reaches the report, the Markdown, the page or the terminal', async () => {
    const outputs = [
      outcome.stdout,
      outcome.stderr,
      ...(await Promise.all(
        ['json', 'md', 'html'].map((extension) => readFile(join(project, `out/quality-summary.${extension}`), 'utf8')),
      )),
    ];
    expect(outputs.filter((output) => output.includes('SECRET'))).toEqual([]);
  });
});

test("the reporter given through the project's own file that re-exports it checks bodies and excerpts failed ones, as when registered by name", async () => {
  const server = await startPetstore();
  const made = await createPlaywrightProject({
    'playwright.config.ts': config.replace(
      "['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', openapi: 'petstore.yaml' }]",
      "['./my-reporter.ts', { outputFile: 'out/quality-summary.json', openapi: 'petstore.yaml', failureExcerptBytes: 200 }]",
    ),
    'my-reporter.ts': "export { default } from 'quality-evidence/reporter';\n",
    'petstore.yaml': await readFile(join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml'), 'utf8'),
    'tests/pets.spec.ts': `import { test, expect } from 'quality-evidence/test';

test('lists pets, then asks for a route there is not', async ({ request }) => {
  expect((await request.get('/v2/pets')).status()).toBe(200);
  expect((await request.get('/v2/owners')).status()).toBe(404);
});
`,
  });

  // Moved where no folder's name holds the package's: the path of the project's own reporter file must not name it.
  const outside = await mkdtemp(join(tmpdir(), 'consumer-'));
  const project = join(outside, 'shop');
  await rename(made, project);
  try {
    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });

    expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/quality-summary.json'));
    const excerpts = (failed: readonly { readonly excerpt?: string | undefined }[] | undefined) => failed?.map(({ excerpt }) => excerpt);
    const seen = report.endpoints.map(({ endpoint, bodies, failedExecutions }) => [
      endpoint,
      bodies?.validatedCount,
      excerpts(failedExecutions),
    ]);
    expect(seen).toEqual([
      ['GET /pets', 1, undefined],
      ['GET /v2/owners', undefined, ['{"code":404,"message":"no such route"}']],
    ]);
  } finally {
    await server.close();
    await rm(outside, { recursive: true, force: true });
  }
});

// Issue 34: a body the validator cannot finish with used to crash the check inside the test's worker (the
// body dropped out of the counts), and a backtracking pattern blocked the worker past the test's timeout.
test.describe('a body the validator could not finish with is counted, and no pattern blocks a test', () => {
  const api = JSON.stringify({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/deep': {
        get: {
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/N' } } } } },
        },
      },
      '/word': {
        get: {
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string', pattern: '^(a+)+$' } } } } },
        },
      },
    },
    components: { schemas: { N: { type: 'array', items: { $ref: '#/components/schemas/N' } } } },
  });
  // A blocked worker cannot run Playwright's timeout, and the test passed once unblocked: the test times its own call.
  const hostileSpec = `import { test, expect } from 'quality-evidence/test';

test('reads a deep body, then a word in a moment', async ({ request }) => {
  expect((await request.get('/deep')).status()).toBe(200);
  const started = Date.now();
  expect((await request.get('/word')).status()).toBe(200);
  expect(Date.now() - started).toBeLessThan(5000);
});
`;

  test('the deep body counts as tooDeep, the word as off its pattern, checked in under 5 s where it took 10 to 19', async () => {
    const server: Server = createServer((request, response) => {
      const body = request.url === '/deep' ? `${'['.repeat(20_000)}${']'.repeat(20_000)}` : JSON.stringify(`${'a'.repeat(27)}b`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const project = await createPlaywrightProject({
      'playwright.config.ts': config.replace("openapi: 'petstore.yaml'", "openapi: 'api.json'"),
      'api.json': api,
      'tests/hostile.spec.ts': hostileSpec,
    });

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    server.closeAllConnections();
    server.close();

    expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/quality-summary.json'));
    expect(Object.fromEntries(report.endpoints.map(({ endpoint, bodies }) => [endpoint, bodies]))).toEqual({
      'GET /deep': {
        validatedCount: 0,
        schemaViolationCount: 0,
        notValidatedCount: 1,
        notValidatedReasons: { tooDeep: 1 },
        topViolations: [],
      },
      'GET /word': {
        validatedCount: 1,
        schemaViolationCount: 1,
        notValidatedCount: 0,
        notValidatedReasons: {},
        topViolations: [{ body: 'response', pointer: '', keyword: 'pattern', count: 1 }],
      },
    });
  });
});
