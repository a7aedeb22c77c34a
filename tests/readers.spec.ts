import { expect, test } from './support/test.js';
import { Readable } from 'node:stream';
import { InputSyntaxError, RecordValidationError, type QualityReport, type QualityToolConfig } from '../src/index.js';
import { describeIssue } from '../src/issues/recordIssue.js';
import { formatFromContent } from '../src/readers/detectFormat.js';
import type { WorkflowInput } from '../src/workflow/readInputs.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { rejectionOf } from './support/failures.js';
import { reportFrom } from './support/reports.js';

// The readers through the workflow, on an in-memory file system that hands
// files over in 7-byte chunks, so every record is split across chunks.

const config: QualityToolConfig = {
  environment: 'test',
  slowResponseThresholdMs: 100,
  inputPath: 'unused.json',
  outputPath: 'out/report.json',
};

async function reportOf(
  files: Record<string, string>,
  inputs: readonly WorkflowInput[],
  options: { includeAssets?: boolean; stdin?: string } = {},
): Promise<QualityReport> {
  const stdin = options.stdin === undefined ? undefined : Readable.from([Buffer.from(options.stdin)]);
  const { reportText } = await runQualityWorkflow(
    config,
    { fileSystem: new MemoryFileSystem(files), stdin },
    { inputs, includeAssets: options.includeAssets },
  );
  return reportFrom(reportText);
}

async function failureOf(files: Record<string, string>, inputs: readonly WorkflowInput[]): Promise<unknown> {
  return rejectionOf(runQualityWorkflow(config, { fileSystem: new MemoryFileSystem(files) }, { inputs }));
}

async function issuesOf(files: Record<string, string>, inputs: readonly WorkflowInput[]): Promise<string[]> {
  const error = await failureOf(files, inputs);
  if (!(error instanceof RecordValidationError)) throw error;
  return error.issues.map(describeIssue);
}

const ok = (endpoint: string, responseTimeMs = 10, statusCode = 200) => ({ statusCode, endpoint, responseTimeMs });
const records = [ok('GET /orders'), ok('POST /orders', 150, 500), ok('GET /orders/7', 20, 404)];
const summaryOfRecords = {
  executionCount: 3,
  failedExecutionCount: 2,
  slowExecutionCount: 1,
  failureCountByEndpoint: { 'GET /orders/7': 1, 'POST /orders': 1 },
  slowEndpoints: ['POST /orders'],
  noResponseCount: 0,
  noResponseEndpoints: [],
};

test.describe('JSON documents, streamed', () => {
  test('an object with an executions list, pretty-printed, split in 7-byte chunks', async () => {
    expect(await reportOf({ 'a.json': JSON.stringify({ executions: records }, null, 2) }, [{ path: 'a.json' }])).toMatchObject(
      summaryOfRecords,
    );
  });

  test('a bare array, with a byte-order mark', async () => {
    expect(await reportOf({ 'a.json': `\ufeff${JSON.stringify(records)}` }, [{ path: 'a.json' }])).toMatchObject(summaryOfRecords);
  });

  test('other top-level keys, before and after, and an executions key nested deeper, are left alone', async () => {
    const text = `{"meta":{"executions":[1,2],"note":"x]},{"},"executions":${JSON.stringify(records)},"tail":[{"a":[1]}]}`;
    expect(await reportOf({ 'a.json': text }, [{ path: 'a.json' }])).toMatchObject(summaryOfRecords);
  });

  test('records keep their list positions in messages', async () => {
    const text = JSON.stringify({ executions: [ok('GET /a'), { ...ok('GET /b'), statusCode: 700 }, 'oops'] });
    expect(await issuesOf({ 'a.json': text }, [{ path: 'a.json' }])).toEqual([
      'executions[1].statusCode: must be an integer from 100 to 599; found 700 (a number)',
      'executions[2]: must be an object; found a string',
    ]);
  });

  test('a syntax error inside a record is located by line and column', async () => {
    const error = await failureOf({ 'a.json': '{\n  "executions": [\n    {"statusCode": 200},\n    {"statusCode": 2x0}\n  ]\n}' }, [
      { path: 'a.json' },
    ]);
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect([(error as InputSyntaxError).line, (error as InputSyntaxError).column]).toEqual([4, 21]);
  });

  test('a syntax error outside the list is located too', async () => {
    const error = await failureOf({ 'a.json': '{\n  "note": tru,\n  "executions": []\n}' }, [{ path: 'a.json' }]);
    expect([(error as InputSyntaxError).line, (error as InputSyntaxError).column]).toEqual([2, 11]);
  });

  test('a missing comma between records is a syntax error, not two records', async () => {
    const error = await failureOf({ 'a.json': '[{"a":1} {"a":2}]' }, [{ path: 'a.json' }]);
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as InputSyntaxError).column).toBe(10);
  });

  for (const [label, text, found] of [
    ['an object without executions', '{"records": []}', 'an object without an "executions" array'],
    ['executions that is not a list', '{"executions": {"a": 1}}', 'an object whose "executions" is an object'],
    ['a number', '42', 'a number'],
  ] as const) {
    test(`${label} is the wrong top-level shape`, async () => {
      expect(await issuesOf({ 'a.json': text }, [{ path: 'a.json' }])).toEqual([
        `(top level): expected an object with an "executions" array, or an array of records; found ${found}`,
      ]);
    });
  }
});

test.describe('NDJSON', () => {
  test('one record per line; blank lines and CRLF are fine', async () => {
    const text = `${JSON.stringify(records[0])}\r\n\r\n${JSON.stringify(records[1])}\n   \n${JSON.stringify(records[2])}`;
    expect(await reportOf({ 'a.ndjson': text }, [{ path: 'a.ndjson' }])).toMatchObject(summaryOfRecords);
  });

  test('.jsonl is NDJSON too, and a byte-order mark is ignored', async () => {
    expect(
      await reportOf({ 'a.jsonl': `\ufeff${records.map((record) => JSON.stringify(record)).join('\n')}\n` }, [{ path: 'a.jsonl' }]),
    ).toMatchObject(summaryOfRecords);
  });

  test('every bad record is named by its line, all at once', async () => {
    const text = [JSON.stringify(ok('GET /a')), '', JSON.stringify({ ...ok('GET /b'), responseTimeMs: -1 }), '"text"'].join('\n');
    expect(await issuesOf({ 'b.ndjson': text }, [{ path: 'b.ndjson' }])).toEqual([
      'line 3 of b.ndjson, responseTimeMs: must be a finite number of milliseconds, zero or more; found -1 (a number)',
      'line 4 of b.ndjson: must be an object; found a string',
    ]);
  });

  test('a line that is not JSON is a syntax error naming its line', async () => {
    const error = await failureOf({ 'b.ndjson': `${JSON.stringify(ok('GET /a'))}\n{"statusCode": 200,\n` }, [{ path: 'b.ndjson' }]);
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as InputSyntaxError).line).toBe(2);
  });

  test('a line holding two values is a syntax error, not two records', async () => {
    const error = await failureOf({ 'b.ndjson': '{"a":1}, {"a":2}\n' }, [{ path: 'b.ndjson' }]);
    expect(error).toBeInstanceOf(InputSyntaxError);
  });
});

function harEntry(method: string, url: string, status: number, time: number, extra: Record<string, unknown> = {}) {
  return {
    startedDateTime: '2026-11-23T08:00:00.000Z',
    time,
    request: { method, url },
    response: { status, content: { mimeType: 'application/json' } },
    ...extra,
  };
}
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });

test.describe('HAR', () => {
  test('entries become records: method, path without the query with ids templated, status and time', async () => {
    const report = await reportOf(
      {
        's.har': har([
          harEntry('GET', 'http://127.0.0.1:3000/booking/17?x=1', 200, 12),
          harEntry('GET', 'http://127.0.0.1:3000/booking/18', 404, 150),
        ]),
      },
      [{ path: 's.har' }],
    );
    expect(report).toMatchObject({
      executionCount: 2,
      failureCountByEndpoint: { 'GET /booking/:id': 1 },
      slowEndpoints: ['GET /booking/:id'],
      skippedAssetCount: 0,
    });
  });

  test('status 0 (devtools) and -1 (Playwright) are calls with no response, not invalid entries', async () => {
    const report = await reportOf(
      {
        's.har': har([
          harEntry('GET', 'http://h/a', 0, 3),
          harEntry('POST', 'http://h/b', -1, 4, { response: { status: -1, _failureText: 'net::ERR_CONNECTION_REFUSED' } }),
        ]),
      },
      [{ path: 's.har' }],
    );
    expect(report).toMatchObject({
      executionCount: 2,
      failedExecutionCount: 2,
      noResponseCount: 2,
      noResponseEndpoints: ['GET /a', 'POST /b'],
    });
  });

  test('page assets are left out and counted, by resource type or by MIME type; --include-assets keeps them', async () => {
    const entries = [
      harEntry('GET', 'http://h/api/orders', 200, 5, { _resourceType: 'fetch' }),
      harEntry('GET', 'http://h/app.js', 200, 5, { _resourceType: 'script' }),
      harEntry('GET', 'http://h/logo.png', 200, 5, { response: { status: 200, content: { mimeType: 'image/png' } } }),
      harEntry('GET', 'http://h/', 200, 5, { response: { status: 200, content: { mimeType: 'text/html; charset=utf-8' } } }),
    ];
    expect(await reportOf({ 's.har': har(entries) }, [{ path: 's.har' }])).toMatchObject({ executionCount: 1, skippedAssetCount: 3 });
    expect(await reportOf({ 's.har': har(entries) }, [{ path: 's.har' }], { includeAssets: true })).toMatchObject({
      executionCount: 4,
      skippedAssetCount: 0,
    });
  });

  test('entries that are no HTTP call (data:, blob:, about: URLs, WebSockets) are left out and counted with the assets, --include-assets or not', async () => {
    const entries = [
      harEntry('GET', 'http://h/api/orders', 200, 5),
      harEntry('GET', 'data:image/png;base64,iVBORw0KGgo=', 200, 0),
      harEntry('GET', 'blob:https://h/9f1c2b1e-4c3d-4a5b-8c7d-6e5f4a3b2c1d', 200, 1),
      harEntry('GET', 'about:blank', 200, 0),
      // A WebSocket: by its resource type, or by its 101 upgrade alone; its "time" is how long the socket stayed open.
      harEntry('GET', 'wss://h/socket', 101, 60_000, { _resourceType: 'websocket' }),
      harEntry('GET', 'http://h/live', 101, 60_000),
    ];
    for (const includeAssets of [false, true]) {
      expect(await reportOf({ 's.har': har(entries) }, [{ path: 's.har' }], { includeAssets })).toMatchObject({
        executionCount: 1,
        endpoints: [{ endpoint: 'GET /api/orders' }],
        responseTimeMs: { max: 5 },
        skippedAssetCount: 5,
      });
    }
  });

  test('an entry that cannot become a record is named by its index', async () => {
    const entries = [
      harEntry('GET', 'http://h/a', 200, 5),
      { request: { method: 'GET' }, response: { status: 200 } },
      harEntry('GET', 'not a url', 200, 5),
    ];
    expect(await issuesOf({ 'c.har': har(entries) }, [{ path: 'c.har' }])).toEqual([
      'HAR entry 1 of c.har, request.url: must be a string; it is missing',
      'HAR entry 2 of c.har, request.url: must be an absolute URL; found "not a url" (a string)',
    ]);
  });

  test('a file without log.entries is refused', async () => {
    expect(await issuesOf({ 'c.har': '{"log": {}}' }, [{ path: 'c.har' }])).toEqual([
      '(top level) of c.har, log.entries: a HAR file holds its entries in log.entries, an array; it is missing',
    ]);
  });
});

test.describe('several inputs, standard input, detection', () => {
  test('inputs of mixed formats make the report of their concatenation, in the order given', async () => {
    const files = {
      'a.json': JSON.stringify({ executions: [records[0]] }),
      'b.ndjson': `${JSON.stringify(records[1])}\n`,
      'c.json': JSON.stringify([records[2]]),
      'all.json': JSON.stringify(records),
    };
    // Equal but for where each slowest execution is: its own file.
    const withoutLocations = (report: QualityReport): QualityReport => ({
      ...report,
      slowestExecutions: report.slowestExecutions.map(({ location: _, ...execution }) => execution),
      endpoints: report.endpoints.map(({ failedExecutions, ...entry }) => ({
        ...entry,
        ...(failedExecutions === undefined ? {} : { failedExecutions: failedExecutions.map(({ location: _, ...execution }) => execution) }),
      })),
    });
    const several = await reportOf(files, [{ path: 'a.json' }, { path: 'b.ndjson' }, { path: 'c.json' }]);
    expect(withoutLocations(several)).toEqual(withoutLocations(await reportOf(files, [{ path: 'all.json' }])));
    expect(several.slowestExecutions.map((execution) => execution.location)).toStrictEqual([
      'line 1 of b.ndjson',
      '[0] of c.json',
      'executions[0] of a.json',
    ]);
  });

  test('messages name the input when a run has several', async () => {
    const files = { 'a.json': JSON.stringify([records[0]]), 'b.json': JSON.stringify([{ ...records[0], statusCode: 99 }]) };
    expect(await issuesOf(files, [{ path: 'a.json' }, { path: 'b.json' }])).toEqual([
      '[0].statusCode of b.json: must be an integer from 100 to 599; found 99 (a number)',
    ]);
  });

  test('- reads standard input, its format told from its content', async () => {
    expect(await reportOf({}, [{ path: '-' }], { stdin: records.map((record) => JSON.stringify(record)).join('\n') })).toMatchObject(
      summaryOfRecords,
    );
  });

  test('a forced format wins over the extension', async () => {
    expect(
      await reportOf({ 'data.txt': records.map((record) => JSON.stringify(record)).join('\n') }, [{ path: 'data.txt', format: 'ndjson' }]),
    ).toMatchObject(summaryOfRecords);
  });

  for (const [label, text, format] of [
    ['a bare array', '[{"statusCode":200}]', 'json'],
    ['an executions document', '{\n  "executions": []\n}', 'json'],
    ['a document on one line', '{"executions": []}', 'json'],
    ['a HAR file', '{ "log": { "entries": [] } }', 'har'],
    ['records one per line', '{"statusCode":200}\n{"statusCode":201}\n', 'ndjson'],
  ] as const) {
    test(`${label} is told to be ${format} from its first bytes`, () => {
      expect(formatFromContent(Buffer.from(text))).toBe(format);
    });
  }
});
