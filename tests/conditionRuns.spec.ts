import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QualityReport } from '../src/index.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The conditions a suite met (issue 36) across runs of the command: a run
// compared with a baseline report lists those newly met and no longer met,
// a baseline taken from the history compares them alike, and merged reports
// add them up as a union. Two HAR files of the same API, read with its
// document; every condition below is counted by hand from the calls.

const COMMAND = 'src/cli/main.js';

const DOCUMENT = `openapi: 3.1.0
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
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
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

// GET /pets declares 13 conditions: 0 status sent, 1 status omitted, 2 status=available, 3 status=sold, 4 limit sent,
// 5 limit's minimum and 6 its maximum (each: reached exactly, and a value outside answered 4xx), 7 status 200,
// 8 a pet's optional tag, 9 its optional kind, 10 kind cat, 11 kind dog, 12 status 400.
// POST /pets declares 4: 0 the cat branch, 1 the cat's maxLength, 2 the dog branch, 3 status 201. 17 in all.

/** A HAR file of these calls: method, path and query, status, the request body and the response body (JSON, or none). */
function har(calls: readonly (readonly [string, string, number, string | undefined, string | undefined])[]): string {
  const entries = calls.map(([method, path, status, sent, answered]) => ({
    startedDateTime: '2026-01-01T00:00:00Z',
    time: 10,
    request: {
      method,
      url: `http://api.test${path}`,
      headers: [],
      queryString: [],
      ...(sent === undefined ? {} : { postData: { mimeType: 'application/json', text: sent } }),
    },
    response: {
      status,
      content: answered === undefined ? { mimeType: 'text/plain', text: '' } : { mimeType: 'application/json', text: answered },
    },
    timings: {},
  }));
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'spec', version: '1' }, entries } });
}

// The baseline: GET /pets met 0, 1, 3, 4, 7, 9, 10, 12 (5 reached, 6 overstepped: neither whole); POST /pets 0 and 3 (1 reached only).
// 10 of 17: 58.82%.
const BASE = har([
  ['GET', '/pets?limit=1&status=sold', 200, undefined, '[{"name":"a","kind":"cat"}]'],
  ['GET', '/pets?limit=101', 400, undefined, '{}'],
  ['POST', '/pets', 201, '{"cat":"abcde"}', undefined],
]);
// This run: GET /pets met 0, 2, 3, 4, 6 (reached with 100, overstepped with 101), 7, 8, 9, 11, 12; POST /pets 2 and 3.
// 12 of 17: 70.59%. Newly met: GET 2, 6, 8, 11 and POST 2; no longer met: GET 1 and 10, POST 0.
const HEAD = har([
  ['GET', '/pets?limit=100&status=available', 200, undefined, '[{"name":"a","tag":"x","kind":"dog"}]'],
  ['GET', '/pets?limit=101&status=sold', 400, undefined, '{}'],
  ['POST', '/pets', 201, '{"dog":"rex"}', undefined],
]);

function command(folder: string, args: readonly string[], env: Record<string, string> = {}) {
  return runProgram(COMMAND, { cwd: folder, args: [...args, '--openapi', 'api.yaml', '--formats', 'json', '--quiet'], env });
}

async function reportIn(folder: string, name: string): Promise<QualityReport> {
  return JSON.parse(await readFile(join(folder, name), 'utf8')) as QualityReport;
}

/** A folder with the document, both HAR files, and base.json, the report of the baseline's run. */
async function baseRun(extraArgs: readonly string[] = [], env: Record<string, string> = {}): Promise<string> {
  const folder = await createTemporaryFolder({ 'api.yaml': DOCUMENT, 'base.har': BASE, 'head.har': HEAD }, 'conditions');
  expect(await command(folder, ['base.har', '--environment', 'ci', '--output', 'base.json', ...extraArgs], env)).toStrictEqual({
    exitCode: 0,
    stdout: '',
    stderr: '',
  });
  return folder;
}

const where = (pointer: string) => `#/paths/~1pets/${pointer}`;

test('a run with a baseline report lists the conditions it newly met and no longer met, counted, each as the contract section lists one', async () => {
  const folder = await baseRun();
  expect(await command(folder, ['head.har', '--environment', 'ci', '--baseline', 'base.json', '--output', 'head.json'])).toStrictEqual({
    exitCode: 0,
    stdout: '',
    stderr: '',
  });
  const contract = (await reportIn(folder, 'head.json')).baseline!.contract!;
  expect(contract.conditionCoveragePercent).toStrictEqual({ before: 58.82, after: 70.59 });
  expect([contract.newlyMetConditionCount, contract.noLongerMetConditionCount, contract.conditionListChangedOperationCount]).toStrictEqual([
    5, 3, 0,
  ]);
  expect(contract.newlyMetConditions).toStrictEqual([
    {
      operation: 'GET /pets',
      condition: {
        kind: 'enumValue',
        where: where('get/parameters/0/schema/enum/0'),
        value: 'available',
        direction: 'request',
        parameter: { name: 'status', in: 'query' },
      },
    },
    {
      operation: 'GET /pets',
      condition: {
        kind: 'bound',
        where: where('get/parameters/1/schema/maximum'),
        keyword: 'maximum',
        value: 100,
        parameter: { name: 'limit', in: 'query' },
        reached: false,
        outside: true,
      },
    },
    {
      operation: 'GET /pets',
      condition: {
        kind: 'optionalProperty',
        where: '#/components/schemas/Pet/properties/tag',
        name: 'tag',
        direction: 'response',
        status: '200',
      },
    },
    {
      operation: 'GET /pets',
      condition: {
        kind: 'enumValue',
        where: '#/components/schemas/Pet/properties/kind/enum/1',
        value: 'dog',
        direction: 'response',
        status: '200',
      },
    },
    {
      operation: 'POST /pets',
      condition: {
        kind: 'branch',
        where: where('post/requestBody/content/application~1json/schema/oneOf/1'),
        keyword: 'oneOf',
        direction: 'request',
      },
    },
  ]);
  expect(contract.noLongerMetConditions).toStrictEqual([
    {
      operation: 'GET /pets',
      condition: { kind: 'parameter', where: where('get/parameters/0'), name: 'status', in: 'query', required: false, case: 'omitted' },
    },
    {
      operation: 'GET /pets',
      condition: {
        kind: 'enumValue',
        where: '#/components/schemas/Pet/properties/kind/enum/0',
        value: 'cat',
        direction: 'response',
        status: '200',
      },
    },
    {
      operation: 'POST /pets',
      condition: {
        kind: 'branch',
        where: where('post/requestBody/content/application~1json/schema/oneOf/0'),
        keyword: 'oneOf',
        direction: 'request',
      },
    },
  ]);
  // What the calls sent and got is in no report: only the document's own values are.
  for (const name of ['base.json', 'head.json']) {
    const text = await readFile(join(folder, name), 'utf8');
    expect([text.includes('rex'), text.includes('abcde'), text.includes('"x"')]).toStrictEqual([false, false, false]);
  }
});

test(`a baseline taken from the history compares the conditions exactly as the report of the same run does, and the line \
keeps no value of a call`, async () => {
  const folder = await baseRun(['--history', 'history.jsonl'], { GITHUB_SHA: 'aaaaaaa1111', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '1' });
  const fromReport = await command(folder, ['head.har', '--environment', 'ci', '--baseline', 'base.json', '--output', 'head.json']);
  const fromHistory = await command(folder, [
    'head.har',
    '--environment',
    'ci',
    '--history',
    'history.jsonl',
    '--history-read-only',
    '--baseline-from-history',
    'main',
    '--output',
    'head-history.json',
  ]);

  expect([fromReport.exitCode, fromHistory.exitCode]).toStrictEqual([0, 0]);
  const [viaReport, viaHistory] = [await reportIn(folder, 'head.json'), await reportIn(folder, 'head-history.json')];
  expect(viaHistory.baseline?.run).toMatchObject({ commit: 'aaaaaaa1111', branch: 'main', runId: '1' });
  expect(viaHistory.baseline?.contract).toStrictEqual(viaReport.baseline?.contract);
  expect(viaHistory.baseline?.contract?.newlyMetConditionCount).toBe(5);
  const history = await readFile(join(folder, 'history.jsonl'), 'utf8');
  expect([history.includes('rex'), history.includes('abcde'), history.includes('"x"')]).toStrictEqual([false, false, false]);
});

test('merged reports add the conditions up as a union: a condition met on one shard only is met in the merged report', async () => {
  const folder = await baseRun();
  expect((await command(folder, ['head.har', '--environment', 'ci', '--output', 'head.json'])).exitCode).toBe(0);
  expect((await command(folder, ['merge', 'base.json', 'head.json', '--output', 'merged.json'])).exitCode).toBe(0);

  const contract = (await reportIn(folder, 'merged.json')).contract!;
  // GET /pets: all but the minimum (reached with limit=1, never overstepped): 12 of 13. POST /pets: both branches and 201,
  // not the maxLength (reached, never overstepped): 3 of 4. 15 of 17.
  expect([contract.conditionCount, contract.coveredConditionCount, contract.conditionCoveragePercent]).toStrictEqual([17, 15, 88.24]);
  expect(
    contract.operations.map(({ endpoint, conditions }) => [endpoint, conditions.coveredConditionCount, conditions.examinedCallCount]),
  ).toStrictEqual([
    ['GET /pets', 12, 4],
    ['POST /pets', 3, 2],
  ]);
  expect(contract.operations.map(({ conditions }) => conditions.unmet.map((condition) => condition.where))).toStrictEqual([
    [where('get/parameters/1/schema/minimum')],
    [where('post/requestBody/content/application~1json/schema/oneOf/0/properties/cat/maxLength')],
  ]);
});

test(`a report whose bit set of conditions holds a position no record can name (past 999,999) is refused by merge and as \
a baseline (65), naming the place; nothing is written`, async () => {
  const folder = await baseRun();
  const report = JSON.parse(await readFile(join(folder, 'base.json'), 'utf8')) as { endpoints: { conditionsMet: { met: string }[] }[] };
  // 3 MB of ones: 24 million positions, which a merge used to collect one by one until the Set it filled gave out (exit 70).
  report.endpoints[0]!.conditionsMet[0]!.met = Buffer.alloc(3_000_000, 0xff).toString('base64');
  await writeFile(join(folder, 'hostile.json'), JSON.stringify(report));
  const refusal =
    'the report "hostile.json" is not a quality-summary.json written by quality-evidence ' +
    '(at endpoints[0].conditionsMet[0].met: Too big: expected string to have <=166668 characters)';

  const merged = await command(folder, ['merge', 'hostile.json', 'base.json', '--output', 'merged.json']);
  const compared = await command(folder, ['head.har', '--environment', 'ci', '--baseline', 'hostile.json', '--output', 'head.json']);

  expect(merged).toStrictEqual({ exitCode: 65, stdout: '', stderr: `quality-evidence: ${refusal}\n` });
  expect(compared).toStrictEqual({
    exitCode: 65,
    stdout: '',
    stderr: `quality-evidence: ${refusal.replace('the report', 'the baseline report')}\n`,
  });
  expect((await readdir(folder)).sort()).toStrictEqual(['api.yaml', 'base.har', 'base.json', 'head.har', 'hostile.json']);
});

test(`a report whose metCounts do not hold one count per position met is refused by merge (65), naming the entry; nothing is \
written`, async () => {
  const folder = await baseRun();
  const report = JSON.parse(await readFile(join(folder, 'base.json'), 'utf8')) as {
    endpoints: { conditionsMet: { metCounts: number[] }[] }[];
  };
  const counts = report.endpoints[0]!.conditionsMet[0]!.metCounts;
  counts.push(1);
  await writeFile(join(folder, 'hostile.json'), JSON.stringify(report));

  const merged = await command(folder, ['merge', 'hostile.json', 'base.json', '--output', 'merged.json']);

  expect(merged).toStrictEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'quality-evidence: the report "hostile.json" is not a quality-summary.json written by quality-evidence ' +
      `(at endpoints[0].conditionsMet[0].metCounts: metCounts holds ${counts.length} counts, but met holds ${counts.length - 1} ` +
      'positions: one count per position met)\n',
  });
  expect((await readdir(folder)).sort()).toStrictEqual(['api.yaml', 'base.har', 'base.json', 'head.har', 'hostile.json']);
});
