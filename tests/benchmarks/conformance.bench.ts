// Benchmark (npm run bench:conformance): what body conformance costs. A
// generated OpenAPI 3.0 document of 300 operations (100 resources: list,
// read, create), a local server whose bodies match it, and a Playwright
// suite of 2,000 tests making 5 calls each (4 reads, 1 create with a JSON
// body) through quality-evidence/test with the reporter registered, with the
// contract and without it, alternating; the difference of the medians over
// the calls is the cost per call. Then the checker alone, in this process,
// per body. BENCH_READ_BODIES=1 has the tests read each body, as most
// suites do. Timings are reported, never asserted.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBodyChecker } from '../../src/contract/bodyConformance.js';
import { loadContract } from '../../src/contract/loadContract.js';
import { createPlaywrightProject, runPlaywright } from '../support/playwrightProject.js';
import { MemoryFileSystem } from '../support/memoryFileSystem.js';

const resources = 100;
const files = Number(process.env['BENCH_FILES'] ?? 20);
const testsPerFile = Number(process.env['BENCH_TESTS_PER_FILE'] ?? 100);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
// BENCH_READ_BODIES=1: the tests read each body (json()), as most suites do, so the check's read serves theirs.
const readBodies = process.env['BENCH_READ_BODIES'] === '1';

const itemSchema = {
  type: 'object',
  required: ['id', 'name', 'price'],
  properties: {
    id: { type: 'integer', format: 'int64', readOnly: true },
    name: { type: 'string', minLength: 1 },
    price: { type: 'number', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    owner: { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } } },
  },
};
const paths: Record<string, unknown> = {};
for (let resource = 0; resource < resources; resource++) {
  const ref = { $ref: '#/components/schemas/Item' };
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  paths[`/r${resource}/items`] = {
    get: { operationId: `list${resource}`, responses: { '200': { description: 'items', ...json({ type: 'array', items: ref }) } } },
    post: { operationId: `create${resource}`, requestBody: json(ref), responses: { '201': { description: 'made', ...json(ref) } } },
  };
  paths[`/r${resource}/items/{id}`] = {
    get: {
      operationId: `read${resource}`,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { '200': { description: 'item', ...json(ref) } },
    },
  };
}
const document = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'bench', version: '1' },
  servers: [{ url: 'http://127.0.0.1/v1' }],
  paths,
  components: { schemas: { Item: itemSchema } },
});

const item = (id: number) => ({
  id,
  name: `item ${id}`,
  price: id * 1.5,
  tags: ['a', 'b'],
  createdAt: '2026-11-24T00:00:00Z',
  owner: { id: 7, email: 'owner@example.com' },
});
const server = createServer((request, response) => {
  const path = (request.url ?? '').split('?')[0] ?? '';
  const json = (status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (request.method === 'POST') {
    request.resume();
    request.on('end', () => json(201, item(1)));
  } else if (/\/items\/\d+$/.test(path)) json(200, item(Number(path.split('/').pop())));
  else json(200, [item(1), item(2), item(3)]);
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function specFile(index: number): string {
  return `import { test, expect } from 'quality-evidence/test';
for (let n = 0; n < ${testsPerFile}; n++) {
  test('file ${index} test ' + n, async ({ request }) => {
    const resource = (n * 7 + ${index}) % ${resources};
    const responses = [];
    for (let call = 0; call < 3; call++) responses.push(await request.get('/v1/r' + resource + '/items/' + (n + call)));
    responses.push(await request.get('/v1/r' + resource + '/items'));
    responses.push(await request.post('/v1/r' + resource + '/items', { data: { name: 'new', price: 2 } }));
    for (const response of responses) {
      expect(response.ok()).toBe(true);
      ${readBodies ? 'expect(await response.json()).toBeTruthy();' : ''}
    }
  });
}
`;
}

const config = (openapi: boolean) =>
  "export default { testDir: './tests', use: { baseURL: process.env.BASE_URL }, reporter: " +
  "[['dot'], ['quality-evidence/reporter', { outputFile: " +
  `'out/quality-summary.json'${openapi ? ", openapi: 'openapi.json'" : ''} }]] };\n`;
const projectFiles: Record<string, string> = {
  'openapi.json': document,
  'with-contract.config.ts': config(true),
  'without-contract.config.ts': config(false),
};
for (let index = 0; index < files; index++) projectFiles[`tests/file-${index}.spec.ts`] = specFile(index);
const project = await createPlaywrightProject(projectFiles);

async function timeRun(
  configFile: string,
): Promise<{ seconds: number; report: { executionCount: number; contract?: { validatedCount: number; schemaViolationCount: number } } }> {
  const started = process.hrtime.bigint();
  const outcome = await runPlaywright(project, ['test', '--config', configFile], { BASE_URL: baseURL });
  if (outcome.exitCode !== 0) throw new Error(`benchmark run failed: ${outcome.stdout}${outcome.stderr}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, report: JSON.parse(await readFile(join(project, 'out/quality-summary.json'), 'utf8')) as never };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const withContract: number[] = [];
const withoutContract: number[] = [];
let checked: Awaited<ReturnType<typeof timeRun>>['report'] | undefined;
for (let round = 0; round < rounds; round++) {
  const run = await timeRun('with-contract.config.ts');
  withContract.push(run.seconds);
  checked = run.report;
  withoutContract.push((await timeRun('without-contract.config.ts')).seconds);
}
server.close();
server.closeAllConnections();

// The checker alone: the same bodies, validated in this process.
const contract = await loadContract(['/openapi.json'], new MemoryFileSystem({ '/openapi.json': document }));
const checker = await createBodyChecker(contract);
const read = contract.operations.find((operation) => operation.operationId === 'read0')!;
const bodies = Array.from({ length: 20_000 }, (_, index) => ({ text: JSON.stringify(item(index)) }));
for (const body of bodies.slice(0, 1000)) checker.checkResponse(read, 200, 'application/json', body);
const checkRounds: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = process.hrtime.bigint();
  for (const body of bodies) checker.checkResponse(read, 200, 'application/json', body);
  checkRounds.push(Number(process.hrtime.bigint() - started) / 1e3 / bodies.length);
}

const calls = checked?.executionCount ?? 0;
const withSeconds = median(withContract);
const withoutSeconds = median(withoutContract);
process.stdout.write(
  `${JSON.stringify(
    {
      operations: contract.operations.length,
      testsReadBodies: readBodies,
      tests: files * testsPerFile,
      calls,
      bodiesValidated: checked?.contract?.validatedCount,
      bodiesOffSchema: checked?.contract?.schemaViolationCount,
      rounds,
      withContractMedianSeconds: Number(withSeconds.toFixed(3)),
      withoutContractMedianSeconds: Number(withoutSeconds.toFixed(3)),
      overheadPercent: Number(((withSeconds / withoutSeconds - 1) * 100).toFixed(1)),
      overheadPerCallMs: Number((((withSeconds - withoutSeconds) * 1000) / calls).toFixed(3)),
      checkerAloneMicrosecondsPerBody: Number(median(checkRounds).toFixed(2)),
      samples: {
        withContract: withContract.map((value) => Number(value.toFixed(3))),
        withoutContract: withoutContract.map((value) => Number(value.toFixed(3))),
      },
    },
    null,
    2,
  )}\n`,
);
