import { spawn } from 'node:child_process';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildReport, summariseExecutions } from '../src/index.js';
import { renderValue } from '../src/renderValue.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { rejectionOf } from './support/failures.js';
import { openRun } from '../src/workflow/openRun.js';
import { createDeterministicClock } from '../src/helpers/clock.js';
import { createTemporaryFolder, runProgram, runWatched, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Inputs a careless or hostile user gives: the defects a hostile probe found
// in the reading (issue 12: 2, 4, 5, 7, 9, 10, 11 and the messages of 13).
// Each runs the compiled command, as a user would.

test.describe.configure({ timeout: 120_000 });

const record = (endpoint: string, statusCode: number | string = 200, responseTimeMs = 5) =>
  JSON.stringify({ statusCode, endpoint, responseTimeMs });

async function folderWith(files: Readonly<Record<string, string | Buffer>>): Promise<string> {
  const folder = await createTemporaryFolder({}, 'hostile');
  for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
  return folder;
}

function command(folder: string, args: readonly string[]): Promise<ProgramOutcome> {
  return runProgram('src/cli/main.js', { cwd: folder, args: [...args, '--output', 'q.json', '--quiet'], timeoutMs: 60_000 });
}

const failure = (stderr: string): ProgramOutcome => ({ exitCode: 65, stdout: '', stderr: `quality-evidence: ${stderr}\n` });

test.describe('an endless input ends in a clear error, in bounded memory', () => {
  for (const [device, args, message] of [
    ['/dev/zero', [], 'the input file is not well-formed JSON: the document outside its list of records is larger than 64 MB'],
    [
      '/dev/zero',
      ['--input-format', 'ndjson'],
      'the input file is not well-formed JSON at line 1, column 1: line 1 of /dev/zero is longer than 64 MB, the most one record may take',
    ],
  ] as const) {
    test(`${device} ${args.join(' ')}`.trim(), async () => {
      const folder = await folderWith({});

      const outcome = await runWatched('src/cli/main.js', { cwd: folder, args: [device, ...args, '--output', 'q.json'] });

      expect({ exitCode: outcome.exitCode, stderr: outcome.stderr }).toEqual({ exitCode: 65, stderr: `quality-evidence: ${message}\n` });
      // Before the fix: 12.8 GB after 60 s, and growing.
      expect(outcome.peakResidentKib).toBeLessThan(1024 * 1024);
    });
  }

  test('/dev/urandom stops at its first byte that is not JSON', async () => {
    const folder = await folderWith({});

    const outcome = await runWatched('src/cli/main.js', { cwd: folder, args: ['/dev/urandom', '--output', 'q.json'] });

    expect(outcome.exitCode).toBe(65);
    expect(outcome.stderr).toMatch(/^quality-evidence: the input file is not well-formed JSON at line \d+, column \d+: /);
    expect(outcome.peakResidentKib).toBeLessThan(1024 * 1024);
  });
});

test.describe('limits that keep a report makeable, each a clear error', () => {
  test('an endpoint label longer than 2,048 characters is an invalid record at its place', async () => {
    const label = `GET /${'x'.repeat(3000)}`;
    const folder = await folderWith({ 'in.ndjson': `${record('GET /ok')}\n${record(label)}\n` });

    expect(await command(folder, ['in.ndjson'])).toEqual(
      failure(
        '1 of 2 records is invalid:\n  - line 2 of in.ndjson, endpoint: must be at most 2,048 characters long; ' +
          'found "GET /xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (a string)',
      ),
    );
  });

  test('one 60 MB label is refused in seconds, not after rescanning it at every chunk', async () => {
    const folder = await folderWith({ 'in.json': `{"executions":[${record(`GET /${'x'.repeat(60 * 1024 * 1024)}`)}]}` });

    const outcome = await command(folder, ['in.json']);

    expect(outcome).toEqual(
      failure(
        '1 of 1 record is invalid:\n  - executions[0].endpoint: must be at most 2,048 characters long; ' +
          'found "GET /xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (a string)',
      ),
    );
  });

  test('a record larger than 64 MB is refused by its place', async () => {
    const folder = await folderWith({ 'in.json': `{"executions":[{"statusCode":200,"padding":"${'x'.repeat(65 * 1024 * 1024)}"}]}` });

    expect(await command(folder, ['in.json'])).toEqual(
      failure(
        'the input file is not well-formed JSON at line 1, column 16: list element 0 is larger than 64 MB, the most one record may take',
      ),
    );
  });

  test('more than 50,000 distinct endpoints is an error naming the record past the limit', async () => {
    const lines = Array.from({ length: 50_001 }, (_, index) => record(`GET /orders/${index}`));
    const folder = await folderWith({ 'in.ndjson': `${lines.join('\n')}\n` });

    expect(await command(folder, ['in.ndjson'])).toEqual(
      failure(
        'too many distinct endpoints: line 50001 of in.ndjson brings the count past 50,000, the most one report holds; ' +
          'ids are probably in the paths: group them with --route /orders/:id (QE_ROUTES) or --endpoint-grouping auto',
      ),
    );
    expect((await command(folder, ['in.ndjson', '--endpoint-grouping', 'auto'])).exitCode).toBe(0);
  });

  test('a report longer than the longest string V8 makes is an InputLimitError, and nothing is written', async () => {
    const label = `GET /${'x'.repeat(2043)}`;
    const small = buildReport(summariseExecutions([{ statusCode: 500, endpoint: label, responseTimeMs: 1 }], 750), {
      environment: 'ci',
      slowResponseThresholdMs: 750,
    });
    // The same endpoint 300,000 times: one string in memory, 600 MB once written out.
    const huge = { ...small, endpoints: Array.from({ length: 300_000 }, () => small.endpoints[0]!) };
    const fileSystem = new MemoryFileSystem();

    const { publish } = await openRun(
      { environment: 'ci', slowResponseThresholdMs: 750, outputFile: 'q.json' },
      { fileSystem, env: {}, clock: createDeterministicClock() },
    );

    const error = await rejectionOf(publish(huge));

    expect(error).toMatchObject({
      name: 'InputLimitError',
      message:
        'the report would be longer than the longest string Node.js can make (about 512 MB): ' +
        'fewer distinct endpoints (--route, --endpoint-grouping auto) make it shorter',
    });
    expect(fileSystem.writes).toEqual([]);
  });

  test('130 million junk elements are a validation error listing 20, counting the rest, in bounded memory', async () => {
    const folder = await createTemporaryFolder({}, 'hostile');
    const file = await open(join(folder, 'junk.json'), 'w');
    const block = Buffer.from('0,'.repeat(1_000_000));
    await file.write('[');
    for (let written = 0; written < 130; written++) await file.write(block);
    await file.write('0]');
    await file.close();

    const outcome = await runWatched('src/cli/main.js', { cwd: folder, args: ['junk.json', '--output', 'q.json'] });

    expect(outcome.exitCode).toBe(65);
    const lines = outcome.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(22);
    expect(lines[0]).toBe('quality-evidence: 130000001 of 130000001 records are invalid:');
    expect(lines[20]).toBe('  - [19]: must be an object; found a number');
    expect(lines[21]).toBe('  ... and 129999981 more invalid records');
    expect(outcome.peakResidentKib).toBeLessThan(1024 * 1024);
  });
});

test.describe('a second "executions" key is refused: JSON.parse would keep only the last list', () => {
  for (const [name, document, column] of [
    ['the records first, an empty list after', `{"executions":[${record('GET /a')}],"executions":[]}`, 87],
    ['an empty list first, the records after', `{"executions":[],"executions":[${record('GET /a')}]}`, 30],
  ] as const) {
    test(name, async () => {
      const folder = await folderWith({ 'in.json': document });

      expect(await command(folder, ['in.json'])).toEqual(
        failure(
          `the input file is not well-formed JSON at line 1, column ${column}: the key "executions" appears twice; ` +
            'JSON keeps only the last, which would drop the records of the first without a word, ' +
            'so a document must hold one',
        ),
      );
    });
  }

  test("keys repeated inside a record keep JSON's last-wins rule", async () => {
    const folder = await folderWith({
      'in.json': '{"executions":[{"statusCode":500,"statusCode":200,"endpoint":"GET /a","responseTimeMs":5}]}',
    });

    expect((await command(folder, ['in.json', '--json'])).exitCode).toBe(0);
  });
});

test.describe('invalid UTF-8 is an error at its line and column, never U+FFFD merging two labels', () => {
  const invalid = (text: string) =>
    Buffer.concat(
      text.split('\u00ff').flatMap((part, index) => (index === 0 ? [Buffer.from(part)] : [Buffer.from([0xff]), Buffer.from(part)])),
    );
  const cases = [
    [
      'in a JSON list',
      'in.json',
      invalid(`{"executions":[\n${record('GET /a\u00ff')}]}`),
      'the input file is not well-formed JSON at line 2, column 37: invalid UTF-8 (byte 0xFF); the input must be UTF-8 text',
    ],
    [
      'outside the list',
      'in.json',
      invalid(`{"note":"\u00ff","executions":[]}`),
      'the input file is not well-formed JSON at line 1, column 10: invalid UTF-8 (byte 0xFF); the input must be UTF-8 text',
    ],
    [
      'on an NDJSON line',
      'in.ndjson',
      invalid(`${record('GET /a')}\n${record('GET /b\u00ff')}\n`),
      'the input file is not well-formed JSON at line 2, column 37: invalid UTF-8 (byte 0xFF); the input must be UTF-8 text (line 2 of in.ndjson)',
    ],
    [
      'in a HAR entry',
      'in.har',
      invalid('{"log":{"entries":[{"time":1,"request":{"method":"GET","url":"http://h/\u00ff"},"response":{"status":200}}]}}'),
      'the input file is not well-formed JSON at line 1, column 72: invalid UTF-8 (byte 0xFF); the input must be UTF-8 text',
    ],
  ] as const;
  for (const [name, file, bytes, message] of cases) {
    test(name, async () => {
      const folder = await folderWith({ [file]: bytes });

      expect(await command(folder, [file])).toEqual(failure(message));
    });
  }

  test('an overlong encoding and a lone surrogate are invalid too', async () => {
    for (const sequence of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const folder = await folderWith({
        'in.ndjson': Buffer.concat([
          Buffer.from('{"statusCode":200,"endpoint":"GET /'),
          Buffer.from(sequence),
          Buffer.from('","responseTimeMs":1}\n'),
        ]),
      });

      const outcome = await command(folder, ['in.ndjson']);

      expect(outcome.exitCode).toBe(65);
      expect(outcome.stderr).toContain(`at line 1, column 36: invalid UTF-8 (byte 0x${sequence[0]!.toString(16).toUpperCase()})`);
    }
  });
});

test.describe('a carriage return alone ends a line, in messages and in NDJSON', () => {
  test('a JSON syntax error after CR-only line ends names its real line', async () => {
    const folder = await folderWith({ 'in.json': `{"executions":[\r${record('GET /a')},\r${record('GET /b')} x]}` });

    expect(await command(folder, ['in.json'])).toEqual(
      failure("the input file is not well-formed JSON at line 3, column 59: Expected ',' or ']' after array element"),
    );
  });

  test('CRLF counts one line, not two', async () => {
    const folder = await folderWith({ 'in.json': `{"executions":[\r\n${record('GET /a')},\r\n${record('GET /b')} x]}` });

    expect(await command(folder, ['in.json'])).toEqual(
      failure("the input file is not well-formed JSON at line 3, column 59: Expected ',' or ']' after array element"),
    );
  });

  test('NDJSON with CR-only line ends reads one record per line and names the line of a bad one', async () => {
    const folder = await folderWith({ 'in.ndjson': `${record('GET /a')}\r\r${record('GET /b', 'x')}\r` });

    expect(await command(folder, ['in.ndjson'])).toEqual(
      failure('1 of 2 records is invalid:\n  - line 3 of in.ndjson, statusCode: must be an integer from 100 to 599; found "x" (a string)'),
    );
  });
});

test('a FIFO with a writer is read like standard input', async () => {
  const folder = await folderWith({});
  const fifo = join(folder, 'records.fifo');
  execFileSync('mkfifo', [fifo]);
  const writer = spawn('sh', ['-c', `printf '%s\\n%s\\n' '${record('GET /a')}' '${record('POST /b', 503)}' > '${fifo}'`]);
  const written = new Promise((closed) => writer.on('close', closed));

  const outcome = await runProgram('src/cli/main.js', {
    cwd: folder,
    args: [fifo, '--input-format', 'ndjson', '--output', 'q.json', '--json'],
    timeoutMs: 20_000,
  });
  await written;

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(JSON.parse(outcome.stdout)).toMatchObject({ executionCount: 2, failedExecutionCount: 1 });
});

test.describe('control and bidirectional characters from input are escaped on a terminal', () => {
  const tricky = 'a\u0085b\u202ec\u2066d';

  test('in an input path a message names', async () => {
    const folder = await folderWith({});

    const outcome = await runProgram('src/cli/main.js', { cwd: folder, args: [`${tricky}.json`, '--output', 'q.json'] });

    expect(outcome).toEqual({
      exitCode: 66,
      stdout: '',
      stderr: 'quality-evidence: cannot read the input file "a\\u0085b\\u202ec\\u2066d.json": no such file or directory (ENOENT)\n',
    });
  });

  test('in a value a message shows', async () => {
    const folder = await folderWith({ 'in.ndjson': `${record(`GET /${tricky}`, tricky)}\n` });

    expect(await command(folder, ['in.ndjson'])).toEqual(
      failure(
        '1 of 1 record is invalid:\n  - line 1 of in.ndjson, statusCode: must be an integer from 100 to 599; found "a\\u0085b\\u202ec\\u2066d" (a string)',
      ),
    );
  });

  test('renderValue escapes C1 and bidirectional controls as well as C0', () => {
    expect(renderValue('\u0007\u009b\u202a')).toBe('"\\u0007\\u009b\\u202a" (a string)');
  });
});

// The contract's defects a third hostile probe found (issue 34): each document is refused with 78 at
// its place, or read, and a body the validator cannot finish with is counted; never 70 or a stack trace.
test.describe('a hostile OpenAPI document is refused with 78, or read; never a crash', () => {
  const calls = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 5 }] });
  const openapi = (extra: object, version = '3.1.0') =>
    JSON.stringify({ openapi: version, info: { title: 't', version: '1' }, paths: {}, ...extra });
  const responding = (schema: object, schemas: object = {}) =>
    openapi({
      paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
      components: { schemas },
    });
  const laughs = ['openapi: 3.0.3', 'x-a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  for (let level = 1; level < names.length; level++)
    laughs.push(
      `x-${names[level]!}: &${names[level]!} [${Array(9)
        .fill(`*${names[level - 1]!}`)
        .join(', ')}]`,
    );

  for (const [what, file, text, message] of [
    [
      'a $ref with malformed percent-encoding',
      'api.yaml',
      'openapi: 3.0.3\npaths:\n  /a:\n    $ref: "#/x-paths/%E0%A4%A"\n',
      'paths["/a"].$ref in "api.yaml": is "#/x-paths/%E0%A4%A", whose percent-encoding is malformed',
    ],
    [
      'a YAML alias of its own ancestor',
      'api.yaml',
      'openapi: 3.0.3\npaths: &paths\n  /a: *paths\n',
      'paths["/a"] in "api.yaml": is a YAML alias of a node that holds it',
    ],
    [
      'a billion laughs',
      'api.yaml',
      `${laughs.join('\n')}\npaths: {}\n`,
      '"api.yaml": has YAML aliases that would expand it past what is read',
    ],
    [
      'JSON nested 100,000 deep',
      'api.json',
      openapi({ 'x-deep': '"DEEP"' }).replace('"\\"DEEP\\""', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      '["x-deep"][0][0][0]… in "api.json": nests values deeper than 256 levels',
    ],
    [
      'a cycle through allOf',
      'api.json',
      responding({ $ref: '#/components/schemas/A' }, { A: { allOf: [{ $ref: '#/components/schemas/A' }] } }),
      'components.schemas.A in "api.json": comes back to itself',
    ],
    [
      'an unresolved $dynamicRef',
      'api.json',
      responding({ $dynamicRef: '#nowhere' }),
      'paths["/a"].get.responses["200"].content["application/json"].schema.$dynamicRef in "api.json": "#nowhere" names no $dynamicAnchor of this document',
    ],
    [
      'a duplicate $id',
      'api.json',
      responding({ type: 'object' }, { A: { $id: 'https://e.com/a' }, B: { $id: 'https://e.com/a' } }),
      'components.schemas.B.$id in "api.json": "https://e.com/a" names another schema already',
    ],
    [
      'two operations with one operationId',
      'api.json',
      openapi({ paths: { '/a': { get: { operationId: 'same', responses: {} } }, '/b': { get: { operationId: 'same', responses: {} } } } }),
      'paths["/b"].get.operationId in "api.json": "same" is already the operationId of paths["/a"].get in "api.json"',
    ],
  ] as const) {
    test(`${what}: 78, naming the file and the place`, async () => {
      const folder = await folderWith({ 'calls.json': calls, [file]: text });

      const outcome = await command(folder, ['calls.json', '--openapi', file]);

      expect({ exitCode: outcome.exitCode, stdout: outcome.stdout }).toEqual({ exitCode: 78, stdout: '' });
      expect(outcome.stderr).toContain(`quality-evidence: invalid OpenAPI document:\n  - ${message}`);
      expect(outcome.stderr).not.toMatch(/\n\s+at /);
    });
  }

  for (const [what, extra] of [
    ['3.0: an enum of 130,000 values', { components: { schemas: { E: { enum: Array.from({ length: 130_000 }, (_, index) => index) } } } }],
    [
      '3.0: 130,000 schemas',
      {
        components: {
          schemas: Object.fromEntries(Array.from({ length: 130_000 }, (_, index) => [`S${index}`, { type: 'string', nullable: true }])),
        },
      },
    ],
  ] as const) {
    test(`${what}: read`, async () => {
      const folder = await folderWith({ 'calls.json': calls, 'api.json': openapi(extra, '3.0.3') });

      expect(await command(folder, ['calls.json', '--openapi', 'api.json'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    });
  }

  test('one document named twice, however spelled, is read once', async () => {
    const folder = await folderWith({ 'calls.json': calls, 'api.json': openapi({ paths: { '/a': { get: { responses: {} } } } }) });

    expect(
      await command(folder, ['calls.json', '--openapi', 'api.json', '--openapi', './api.json', '--openapi', join(folder, 'api.json')]),
    ).toEqual({ exitCode: 0, stdout: '', stderr: '' });

    const report = JSON.parse(await readFile(join(folder, 'q.json'), 'utf8')) as {
      contract: { documents: unknown[]; operationCount: number };
    };
    expect([report.contract.documents.length, report.contract.operationCount]).toEqual([1, 1]);
  });

  test('a response 20,000 deep and one a backtracking pattern would take seconds on are counted, in seconds', async () => {
    const entry = (path: string, text: string) => ({
      startedDateTime: '2026-11-24T00:00:00.000Z',
      time: 5,
      request: {
        method: 'GET',
        url: `http://api.test${path}`,
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 200,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: [],
        cookies: [],
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        content: { size: 0, mimeType: 'application/json', text },
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
    });
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'spec', version: '1' },
        entries: [entry('/deep', `${'['.repeat(20_000)}${']'.repeat(20_000)}`), entry('/word', JSON.stringify(`${'a'.repeat(27)}b`))],
      },
    };
    const get = (schema: object) => ({ get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } });
    const api = openapi({
      paths: { '/deep': get({ $ref: '#/components/schemas/N' }), '/word': get({ type: 'string', pattern: '^(a+)+$' }) },
      components: { schemas: { N: { type: 'array', items: { $ref: '#/components/schemas/N' } } } },
    });
    const folder = await folderWith({ 'calls.har': JSON.stringify(har), 'api.json': api });
    const started = Date.now();

    expect(await command(folder, ['calls.har', '--openapi', 'api.json'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });

    // Before: exit 70 for the first; 10 to 19 s for the second alone.
    expect(Date.now() - started).toBeLessThan(8000);
    const report = JSON.parse(await readFile(join(folder, 'q.json'), 'utf8')) as { endpoints: { endpoint: string; bodies: unknown }[] };
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
