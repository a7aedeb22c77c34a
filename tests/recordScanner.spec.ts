import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { readRecords } from '../src/readers/readRecords.js';
import { createReadTally } from '../src/readers/recordBatch.js';
import { EndpointBytes, scanRecord, type ScannedFields } from '../src/readers/recordScanner.js';
import { formatReport } from '../src/report/renderers/json.js';
import { propertyParameters } from './support/properties.js';
import { repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The byte scanner (src/readers/recordScanner.ts) reads the usual record
// shape from the bytes of NDJSON lines and of JSON documents' lists; every
// record it does not recognise goes to JSON.parse and the record check. These specs hold the two paths to the same
// report, and the same message at the same place, whatever the input.

/** The whole run over `bytes`, cut into chunks of the sizes given (cycled): the report's bytes, or the error's class, message and place. */
async function outcome(
  bytes: Buffer,
  scanRecords: boolean,
  chunkSizes: readonly number[] = [bytes.length],
  name = 'input.ndjson',
): Promise<string> {
  const run = createEvidenceRun({ environment: 'test', slowResponseThresholdMs: 500 });
  const pieces: Buffer[] = [];
  for (let at = 0, index = 0; at < bytes.length; index++) {
    const size = Math.max(1, chunkSizes[index % chunkSizes.length]!);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    for (const piece of pieces) yield await Promise.resolve(piece);
  }
  try {
    const options = {
      includeAssets: false,
      nameInput: false,
      tally: createReadTally(),
      reportInvalid: run.takeInvalid.bind(run),
      scanRecords,
    };
    for await (const batch of readRecords({ name, chunks: chunks() }, options)) run.takeBatch(batch);
    return formatReport(run.finish());
  } catch (error) {
    const { name, message, location } = error as Error & { location?: unknown };
    return `${name}: ${message} at ${JSON.stringify(location ?? null)}`;
  }
}

async function expectPathsAlike(text: string | Buffer, chunkSizes?: readonly number[], name?: string): Promise<string> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const scanned = await outcome(bytes, true, chunkSizes, name);
  expect(scanned).toBe(await outcome(bytes, false, chunkSizes, name));
  return scanned;
}

function scan(line: string): { endpoint: number; statusCode: number; responseTimeMs: number; id: string | undefined } | undefined {
  const bytes = Buffer.from(line);
  const fields: ScannedFields = { endpoint: -1, statusCode: 0, responseTimeMs: 0, idStart: -1, idEnd: -1 };
  if (!scanRecord(bytes, 0, bytes.length, new EndpointBytes(), fields)) return undefined;
  const { endpoint, statusCode, responseTimeMs, idStart, idEnd } = fields;
  return { endpoint, statusCode, responseTimeMs, id: idStart < 0 ? undefined : bytes.toString('latin1', idStart, idEnd) };
}

test('the usual shapes are read by the scanner, with the values JSON.parse gives', () => {
  const usual = [
    '{"id":"exec-0000001","statusCode":200,"endpoint":"GET /api/orders/3","responseTimeMs":221.67}',
    '{"statusCode":503,"endpoint":"POST /a","responseTimeMs":0}',
    '{"endpoint":"GET /a", "responseTimeMs": 0.1, "statusCode": 404}',
    '  {\t"responseTimeMs" :86400000 , "statusCode":599,"endpoint":"DELETE /x?y=1#z"}\t',
    '{"statusCode":100,"endpoint":"GET /a","responseTimeMs":12345678.9012345}',
    '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":0.0000000000000000000001}',
  ];
  for (const line of usual) {
    const fields = scan(line);
    const record = JSON.parse(line) as { statusCode: number; responseTimeMs: number; id?: string };
    expect(fields, line).toEqual({ endpoint: 0, statusCode: record.statusCode, responseTimeMs: record.responseTimeMs, id: record.id });
  }
});

/** Lines the scanner must leave to JSON.parse and the record check, each for a reason of its own. */
const LEFT_TO_JSON_PARSE = [
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":1e2}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":-0}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":-1}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":86400000.001}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":1.2345678901234567}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":01}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":1.}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":"5"}',
  '{"statusCode":200.0,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":2e2,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":2000,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":"200","endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":600,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":99,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":200,"endpoint":"GET /\\u0061","responseTimeMs":5}',
  '{"statusCode":200,"endpoint":"GET /é","responseTimeMs":5}',
  '{"statusCode":200,"endpoint":"GET /a\u0001","responseTimeMs":5}',
  '{"statusCode":200,"statusCode":500,"endpoint":"GET /a","responseTimeMs":5}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5,"errorCode":"ECONNRESET"}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5,"source":"browser"}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5,"__proto__":{}}',
  '{"statusCode":200,"endpoint":"GET /a"}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5,}',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5} x',
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5}}',
  '{"id":null,"statusCode":200,"endpoint":"GET /a","responseTimeMs":5}',
  `{"id":"${'i'.repeat(1025)}","statusCode":200,"endpoint":"GET /a","responseTimeMs":5}`,
  `{"statusCode":200,"endpoint":"GET /${'x'.repeat(2044)}","responseTimeMs":5}`,
  '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5} {"statusCode":200,"endpoint":"GET /b","responseTimeMs":5}',
  '[{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5}]',
];

test('every line that is not of the usual shape is left to JSON.parse', () => {
  for (const line of LEFT_TO_JSON_PARSE) expect(scan(line), line).toBeUndefined();
});

/** Lines the scanner reads that the record check refuses, or that need their whole record (failed, slow): the path that explains them must see them. */
const SCANNED_BUT_CHECKED = [
  '{"statusCode":200,"endpoint":"get/a","responseTimeMs":5}',
  '{"statusCode":200,"endpoint":"GET  /a ","responseTimeMs":5}',
  `{"statusCode":200,"endpoint":"GET /${'x'.repeat(2043)}","responseTimeMs":5}`,
  '{"id":"slow","statusCode":201,"endpoint":"GET /a","responseTimeMs":9000}',
  '{"id":"failed","statusCode":500,"endpoint":"GET /a","responseTimeMs":5}',
];

test('each hand-made line gives the same report or message on either path, alone and all together', async () => {
  const lines = [...LEFT_TO_JSON_PARSE, ...SCANNED_BUT_CHECKED];
  for (const line of lines) await expectPathsAlike(`${line}\n`);
  const valid = '{"statusCode":200,"endpoint":"GET /ok","responseTimeMs":3}';
  const wellFormed = lines.filter((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
  const together = await expectPathsAlike(`${[valid, ...wellFormed, valid].join('\n')}\n`);
  // Every invalid record is listed, each at its own line: the scanner's columns kept every line number.
  expect(together).toMatch(/^RecordValidationError: /);
  expect(together).toContain('\n  - line 4 of input.ndjson, responseTimeMs: must be a finite number');
  expect(together).toContain('\n  - line 23 of input.ndjson, endpoint: must be at most 2,048 characters');
});

test('the hostile corpus reads alike on either path: every file as it is, cut into chunks, and every JSON file’s records written one to a line', async () => {
  const corpus = join(repositoryRoot, 'fixtures/hostile');
  const files = readdirSync(corpus).filter((name) => name.endsWith('.ndjson') || name.endsWith('.json'));
  let compared = 0;
  for (const name of files.filter((file) => file !== 'expectations.json')) {
    const bytes = readFileSync(join(corpus, name));
    if (name.endsWith('.ndjson')) {
      await expectPathsAlike(bytes);
      await expectPathsAlike(bytes, [1, 2, 3]);
      compared++;
      continue;
    }
    await expectPathsAlike(bytes, undefined, name);
    await expectPathsAlike(bytes, [7, 64], name);
    // A document's first chunk is scanned byte by byte; the scanner reads the whole elements of the chunks after it.
    await expectPathsAlike(bytes, [16, 1_000_000], name);
    let document: unknown;
    try {
      document = JSON.parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    const executions = Array.isArray(document) ? document : (document as { executions?: unknown } | null)?.executions;
    if (!Array.isArray(executions)) continue;
    await expectPathsAlike(`${executions.map((record) => JSON.stringify(record)).join('\n')}\n`);
    compared++;
  }
  expect(compared).toBeGreaterThanOrEqual(8);
});

// Records as people and tools write them: most of the usual shape, some not.
// Records of the usual shape, as a suite's recorder writes them: what the scanner reads.
const usualLine = fc
  .record({
    id: fc.option(
      fc.integer({ min: 0, max: 9999 }).map((index) => `exec-${index}`),
      { nil: undefined },
    ),
    statusCode: fc.constantFrom(200, 201, 204, 404, 500, 503),
    endpoint: fc.constantFrom('GET /a', 'POST /orders/7', 'get /a', 'GET /a?page=2', 'DELETE /x'),
    responseTimeMs: fc.integer({ min: 0, max: 120_000 }).map((hundredths) => hundredths / 100),
  })
  .map((record) => JSON.stringify(record));

const generatedLine = fc.oneof(
  fc
    .record({
      id: fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.constant('exec-1')), { nil: undefined }),
      statusCode: fc.oneof(fc.constantFrom(200, 201, 204, 301, 404, 500, 503), fc.integer({ min: 0, max: 700 })),
      endpoint: fc.oneof(
        fc.constantFrom('GET /a', 'POST /orders/7', 'get /a', 'GET /a?page=2', 'DELETE  /x '),
        fc.string({ maxLength: 10 }).map((path) => `GET /${path}`),
      ),
      responseTimeMs: fc.oneof(
        fc.integer({ min: 0, max: 120_000 }).map((hundredths) => hundredths / 100),
        fc.double({ min: 0, max: 90_000_000, noNaN: true }),
        fc.constantFrom(0, -0, 750, 750.0000000001, 86_400_000, 1e-7),
      ),
    })
    .map((record) => JSON.stringify(record)),
  fc.constantFrom(
    ...LEFT_TO_JSON_PARSE.slice(0, 22),
    '',
    '   ',
    '{"statusCode":200,"endpoint":"GET /a","responseTimeMs":5,"timingMs":{"wait":2}}',
  ),
);

test('generated inputs, cut into chunks anywhere, give the same report or message on either path', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(generatedLine, { maxLength: 40 }),
      fc.constantFrom('\n', '\r\n', '\r'),
      fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 }),
      async (lines, lineBreak, chunkSizes) => {
        await expectPathsAlike(lines.map((line) => `${line}${lineBreak}`).join(''), chunkSizes);
      },
    ),
    propertyParameters(500),
  );
});

test('generated JSON documents, one record to a line or indented, cut into chunks anywhere, give the same report or message on either path', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.oneof({ weight: 19, arbitrary: usualLine }, { weight: 1, arbitrary: generatedLine.filter((line) => line.trim() !== '') }),
        { maxLength: 40 },
      ),
      fc.constantFrom(',\n', ',', ' ,\r\n  '),
      fc.boolean(),
      fc.integer({ min: 1, max: 20 }),
      fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 5 }),
      async (lines, separator, wrapped, head, sizes) => {
        // A small first chunk, then larger ones: the elements of the chunks after the first are read by the scanner.
        const chunkSizes = [head, ...sizes];
        // Pretty-printed records span lines: the scanner reads JSON's whitespace inside a record too.
        const records = lines.map((line, index) => (index % 3 === 2 && isJson(line) ? JSON.stringify(JSON.parse(line), null, 2) : line));
        const list = `[\n${records.join(separator)}\n]`;
        await expectPathsAlike(wrapped ? `{"executions":${list}}\n` : `${list}\n`, chunkSizes, 'input.json');
      },
    ),
    propertyParameters(500),
  );
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

test('a scanned time is the double JSON.parse reads, for any decimal the scanner accepts', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999_999n }), fc.integer({ min: 0, max: 22 }), (mantissa, fraction) => {
      const digits = mantissa.toString().padStart(fraction + 1, '0');
      const text = fraction === 0 ? digits : `${digits.slice(0, -fraction)}.${digits.slice(-fraction)}`;
      const line = `{"statusCode":200,"endpoint":"GET /a","responseTimeMs":${text}}`;
      const fields = scan(line);
      const parsed = (JSON.parse(line) as { responseTimeMs: number }).responseTimeMs;
      if (parsed > 86_400_000 || digits.replace(/^0+/, '').length > 15) expect(fields).toBeUndefined();
      else expect(Object.is(fields?.responseTimeMs, parsed)).toBe(true);
    }),
    propertyParameters(),
  );
});
