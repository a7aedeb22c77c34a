import { expect, test } from './support/test.js';
import {
  InputSyntaxError,
  QualityEvidenceError,
  RecordValidationError,
  executionRecordSchema,
  parseInputJson,
  validateExecutionRecords,
} from '../src/index.js';
import { describeIssue } from '../src/issues/recordIssue.js';
import { isExecutionRecord } from '../src/records/executionRecord.js';

const validRecord = { statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 120 };

const statusCodeRule = 'must be an integer from 100 to 599';
const endpointTypeRule = 'must be a string of the form "<METHOD> <path>"';
const endpointFormRule = 'must be of the form "<METHOD> <path>", with a path that starts with "/"';
const responseTimeRule = 'must be a finite number of milliseconds, zero or more';
const idRule = 'must be a string of at most 1,024 characters when present';
const topLevelRule = 'expected an object with an "executions" array, or an array of records';

function thrownBy<E extends Error>(errorClass: new (...args: never[]) => E, action: () => unknown): E {
  try {
    action();
  } catch (error) {
    if (error instanceof errorClass) return error;
    throw error;
  }
  throw new Error(`expected a ${errorClass.name} to be thrown`);
}

function validationErrorFrom(document: unknown): RecordValidationError {
  return thrownBy(RecordValidationError, () => validateExecutionRecords(document));
}

/** The one issue raised when `fields` replace those of a valid record at position 1 of `{ executions }`. */
function onlyIssueFor(fields: Record<string, unknown>): string {
  const error = validationErrorFrom({ executions: [validRecord, { ...validRecord, ...fields }] });
  expect(error.issues).toHaveLength(1);
  return describeIssue(error.issues[0]!);
}

function withoutField(field: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(validRecord).filter(([key]) => key !== field));
}

test.describe('accepted documents', () => {
  test('an object with an executions array is accepted', () => {
    expect(validateExecutionRecords({ executions: [validRecord] })).toStrictEqual([validRecord]);
  });

  test('a bare array of records is accepted', () => {
    expect(validateExecutionRecords([validRecord])).toStrictEqual([validRecord]);
  });

  test('an empty executions list is valid', () => {
    expect(validateExecutionRecords({ executions: [] })).toStrictEqual([]);
  });

  test('an empty bare array is valid', () => {
    expect(validateExecutionRecords([])).toStrictEqual([]);
  });

  test('fields other than the record fields are ignored: valid records are returned as given, not copied', () => {
    const record = { ...validRecord, note: 'ignored', headers: { a: 'b' } };
    const records = validateExecutionRecords({ generatedBy: 'tool', executions: [record] });
    expect(records).toHaveLength(1);
    expect(records[0]).toBe(record);
  });

  test('an optional id is kept', () => {
    expect(validateExecutionRecords([{ ...validRecord, id: 'exec-001' }])).toStrictEqual([{ ...validRecord, id: 'exec-001' }]);
  });

  test('a record without an id has no id key', () => {
    const [record] = validateExecutionRecords([validRecord]);
    expect(Object.keys(record!)).toEqual(['statusCode', 'endpoint', 'responseTimeMs']);
  });

  test('the endpoint is validated but not yet normalised', () => {
    const label = '  get \t /orders ';
    expect(validateExecutionRecords([{ ...validRecord, endpoint: label }])).toStrictEqual([{ ...validRecord, endpoint: label }]);
  });

  for (const statusCode of [100, 599]) {
    test(`statusCode ${statusCode} is accepted`, () => {
      expect(validateExecutionRecords([{ ...validRecord, statusCode }])).toStrictEqual([{ ...validRecord, statusCode }]);
    });
  }

  for (const responseTimeMs of [0, 12.5, 86_400_000]) {
    test(`responseTimeMs ${responseTimeMs} is accepted`, () => {
      expect(validateExecutionRecords([{ ...validRecord, responseTimeMs }])).toStrictEqual([{ ...validRecord, responseTimeMs }]);
    });
  }
});

test.describe('calls that got no response', () => {
  const noResponse = { errorCode: 'ECONNREFUSED', endpoint: 'GET /orders', responseTimeMs: 3 };

  test('a record with errorCode and no statusCode is accepted', () => {
    expect(validateExecutionRecords([noResponse])).toEqual([noResponse]);
  });

  test('a record with both statusCode and errorCode is refused at errorCode', () => {
    expect(onlyIssueFor({ errorCode: 'ECONNREFUSED' })).toEqual(
      `executions[1].errorCode: must be absent when statusCode is given (errorCode marks a call that got no response); found "ECONNREFUSED" (a string)`,
    );
  });

  for (const [label, errorCode] of [
    ['empty', ''],
    ['with a space', 'E CONN'],
    ['65 characters long', 'E'.repeat(65)],
    ['a number', 7],
  ] as const) {
    test(`an errorCode that is ${label} is refused`, () => {
      const error = validationErrorFrom([{ ...noResponse, errorCode }]);
      expect(error.issues.map((issue) => [issue.path.join('.'), issue.expected])).toEqual([
        ['errorCode', 'must be a non-empty error code without whitespace, at most 64 characters (e.g. "ECONNREFUSED")'],
      ]);
    });
  }
});

test.describe('timing phases', () => {
  test('a record with every phase is accepted and keeps them', () => {
    const record = { ...validRecord, timingMs: { dns: 1, connect: 2.5, tls: 3, wait: 40, receive: 0 } };
    expect(validateExecutionRecords([record])).toEqual([record]);
  });

  test('a negative phase is refused with its path', () => {
    expect(onlyIssueFor({ timingMs: { wait: -1 } })).toEqual(
      `executions[1].timingMs.wait: must be a finite number of milliseconds, zero or more, when present; found -1 (a number)`,
    );
  });

  test('timingMs that is not an object is refused', () => {
    expect(onlyIssueFor({ timingMs: 12 })).toEqual(
      `executions[1].timingMs: must be an object of timing phases in milliseconds (dns, connect, tls, wait, receive) when present; found 12 (a number)`,
    );
  });
});

test.describe('invalid fields', () => {
  const cases: readonly (readonly [string, Record<string, unknown>, string])[] = [
    ['statusCode 99', { statusCode: 99 }, `executions[1].statusCode: ${statusCodeRule}; found 99 (a number)`],
    ['statusCode 600', { statusCode: 600 }, `executions[1].statusCode: ${statusCodeRule}; found 600 (a number)`],
    ['statusCode 200.5', { statusCode: 200.5 }, `executions[1].statusCode: ${statusCodeRule}; found 200.5 (a number)`],
    ['statusCode "200"', { statusCode: '200' }, `executions[1].statusCode: ${statusCodeRule}; found "200" (a string)`],
    ['statusCode null', { statusCode: null }, `executions[1].statusCode: ${statusCodeRule}; found null (null)`],
    ['endpoint that is not a string', { endpoint: 42 }, `executions[1].endpoint: ${endpointTypeRule}; found 42 (a number)`],
    [
      'endpoint "orders" without a method',
      { endpoint: 'orders' },
      `executions[1].endpoint: ${endpointFormRule}; found "orders" (a string)`,
    ],
    [
      'endpoint "GET orders" with a path that does not start with /',
      { endpoint: 'GET orders' },
      `executions[1].endpoint: ${endpointFormRule}; found "GET orders" (a string)`,
    ],
    ['endpoint "GET" alone', { endpoint: 'GET' }, `executions[1].endpoint: ${endpointFormRule}; found "GET" (a string)`],
    ['endpoint ""', { endpoint: '' }, `executions[1].endpoint: ${endpointFormRule}; found "" (a string)`],
    [
      'endpoint with whitespace inside the path',
      { endpoint: 'GET /a b' },
      `executions[1].endpoint: ${endpointFormRule}; found "GET /a b" (a string)`,
    ],
    ['responseTimeMs -1', { responseTimeMs: -1 }, `executions[1].responseTimeMs: ${responseTimeRule}; found -1 (a number)`],
    ['responseTimeMs "12"', { responseTimeMs: '12' }, `executions[1].responseTimeMs: ${responseTimeRule}; found "12" (a string)`],
    ['responseTimeMs null', { responseTimeMs: null }, `executions[1].responseTimeMs: ${responseTimeRule}; found null (null)`],
    [
      'responseTimeMs Infinity',
      { responseTimeMs: Infinity },
      `executions[1].responseTimeMs: ${responseTimeRule}; found Infinity (a number)`,
    ],
    // Past a day a time is in another unit (µs, ns, an epoch timestamp), and 1e306 would overflow the sum behind the mean.
    [
      'responseTimeMs past a day',
      { responseTimeMs: 86_400_000.001 },
      `executions[1].responseTimeMs: must be at most 86,400,000 (a day): a longer time is in another unit; found 86400000.001 (a number)`,
    ],
    [
      'responseTimeMs 1e306',
      { responseTimeMs: 1e306 },
      `executions[1].responseTimeMs: must be at most 86,400,000 (a day): a longer time is in another unit; found 1e+306 (a number)`,
    ],
    [
      'a timing phase of 1e306',
      { timingMs: { wait: 1e306 } },
      `executions[1].timingMs.wait: must be at most 86,400,000 (a day) when present: a longer time is in another unit; found 1e+306 (a number)`,
    ],
    ['id that is not a string', { id: 7 }, `executions[1].id: ${idRule}; found 7 (a number)`],
    ['id null', { id: null }, `executions[1].id: ${idRule}; found null (null)`],
  ];
  for (const [label, fields, issue] of cases) {
    test(`${label} is refused`, () => {
      expect(onlyIssueFor(fields)).toEqual(issue);
    });
  }

  const missing: readonly (readonly [string, string])[] = [
    ['statusCode', `${statusCodeRule} (or errorCode, for a call that got no response)`],
    ['endpoint', endpointTypeRule],
    ['responseTimeMs', responseTimeRule],
  ];
  for (const [field, rule] of missing) {
    test(`a missing ${field} is refused as missing`, () => {
      const error = validationErrorFrom({ executions: [validRecord, withoutField(field)] });
      expect(error.issues.map(describeIssue)).toEqual([`executions[1].${field}: ${rule}; it is missing`]);
    });
  }

  const notObjects: readonly (readonly [string, unknown, string])[] = [
    ['a number', 5, 'a number'],
    ['null', null, 'null'],
    ['an array', [validRecord], 'an array'],
    ['a string', 'GET /orders', 'a string'],
  ];
  for (const [label, record, found] of notObjects) {
    test(`a record that is ${label} is refused as not an object`, () => {
      const error = validationErrorFrom({ executions: [validRecord, record] });
      expect(error.issues.map(describeIssue)).toEqual([`executions[1]: must be an object; found ${found}`]);
    });
  }
});

test.describe('RecordValidationError', () => {
  test('paths in a bare array start at the index', () => {
    const error = validationErrorFrom([{ ...validRecord, endpoint: 'orders' }]);
    expect(error.issues.map(describeIssue)).toEqual([`[0].endpoint: ${endpointFormRule}; found "orders" (a string)`]);
  });

  test('the message names the count and lists every issue', () => {
    const error = validationErrorFrom({
      executions: [validRecord, { ...validRecord, statusCode: 99 }, validRecord, { ...validRecord, responseTimeMs: -1 }],
    });
    expect(error.message).toBe(
      [
        '2 of 4 records are invalid:',
        `  - executions[1].statusCode: ${statusCodeRule}; found 99 (a number)`,
        `  - executions[3].responseTimeMs: ${responseTimeRule}; found -1 (a number)`,
      ].join('\n'),
    );
  });

  test('every bad record is reported, not just the first', () => {
    const error = validationErrorFrom({
      executions: [{ ...validRecord, statusCode: 99 }, validRecord, { ...validRecord, endpoint: 'GET' }, { ...validRecord, id: 1 }],
    });
    expect(error.issues.map(describeIssue)).toEqual([
      `executions[0].statusCode: ${statusCodeRule}; found 99 (a number)`,
      `executions[2].endpoint: ${endpointFormRule}; found "GET" (a string)`,
      `executions[3].id: ${idRule}; found 1 (a number)`,
    ]);
    expect(error.invalidRecordCount).toBe(3);
    expect(error.recordCount).toBe(4);
  });

  test('every bad field of one record is reported', () => {
    const error = validationErrorFrom([{ statusCode: '200', endpoint: 'orders' }]);
    expect(error.issues.map(describeIssue)).toEqual([
      `[0].statusCode: ${statusCodeRule}; found "200" (a string)`,
      `[0].endpoint: ${endpointFormRule}; found "orders" (a string)`,
      `[0].responseTimeMs: ${responseTimeRule}; it is missing`,
    ]);
    expect(error.invalidRecordCount).toBe(1);
    expect(error.recordCount).toBe(1);
  });

  test('a single record is counted in the singular', () => {
    const error = validationErrorFrom([{ ...validRecord, statusCode: 99 }]);
    expect(error.message).toBe(`1 of 1 record is invalid:\n  - [0].statusCode: ${statusCodeRule}; found 99 (a number)`);
  });

  test('the listed issues stop at 20 and the message says how many more there are', () => {
    // 5 good records, then 25 with one bad field each.
    const executions = [
      ...Array.from({ length: 5 }, () => validRecord),
      ...Array.from({ length: 25 }, () => ({ ...validRecord, statusCode: 99 })),
    ];
    const error = validationErrorFrom({ executions });
    const listed = Array.from({ length: 20 }, (_, index) => `executions[${index + 5}].statusCode: ${statusCodeRule}; found 99 (a number)`);
    expect(error.issues.map(describeIssue)).toEqual(listed);
    expect([error.invalidRecordCount, error.unlistedRecordCount, error.recordCount]).toEqual([25, 5, 30]);
    expect(error.message).toBe(
      ['25 of 30 records are invalid:', ...listed.map((line) => `  - ${line}`), '  ... and 5 more invalid records'].join('\n'),
    );
  });

  test('the cap counts problems listed; past it, invalid records are only counted', () => {
    // 8 empty records, 3 problems each: the first 7 records fill the 20 places (the 7th only partly), the 8th is counted.
    const error = validationErrorFrom(Array.from({ length: 8 }, () => ({})));
    expect(error.issues).toHaveLength(20);
    expect(describeIssue(error.issues[19]!)).toEqual(`[6].responseTimeMs: ${responseTimeRule}; it is missing`);
    expect([error.invalidRecordCount, error.unlistedRecordCount, error.recordCount]).toEqual([8, 1, 8]);
    expect(error.message.endsWith('\n  ... and 1 more invalid record')).toBe(true);
  });

  test('a long value is shortened and the rest of the record is never shown', () => {
    const endpoint = `GET ${'o'.repeat(496)}`;
    expect(endpoint).toHaveLength(500);
    const error = validationErrorFrom({ executions: [{ ...validRecord, endpoint, note: 'do-not-dump-this' }] });
    // The JSON rendering `"GET ooo…` keeps 39 characters, then an ellipsis.
    const shown = `"GET ${'o'.repeat(34)}…`;
    expect(shown).toHaveLength(40);
    expect(error.issues.map(describeIssue)).toEqual([`executions[0].endpoint: ${endpointFormRule}; found ${shown} (a string)`]);
    expect(error.message).toBe(`1 of 1 record is invalid:\n  - executions[0].endpoint: ${endpointFormRule}; found ${shown} (a string)`);
    expect(error.message).not.toContain('do-not-dump-this');
    expect(error.message).not.toContain('o'.repeat(35));
  });

  test('an object value is shortened too', () => {
    const issue = onlyIssueFor({ statusCode: { code: 200, note: 'do-not-dump-this-either-because-it-is-long' } });
    expect(issue).toEqual(`executions[1].statusCode: ${statusCodeRule}; found {"code":200,"note":"do-not-dump-this-ei… (an object)`);
  });

  test('the error is a RecordValidationError, a QualityEvidenceError and an Error named RecordValidationError', () => {
    const error = validationErrorFrom([{}]);
    expect(error).toBeInstanceOf(RecordValidationError);
    expect(error).toBeInstanceOf(QualityEvidenceError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RecordValidationError');
  });

  const wrongShapes: readonly (readonly [string, unknown, string])[] = [
    ['a string', 'executions', 'a string'],
    ['a number', 42, 'a number'],
    ['null', null, 'null'],
    ['a boolean', true, 'a boolean'],
    ['{}', {}, 'an object without an "executions" array'],
    ['{ executions: {} }', { executions: {} }, 'an object whose "executions" is an object'],
    ['{ executions: null }', { executions: null }, 'an object whose "executions" is null'],
  ];
  for (const [label, document, found] of wrongShapes) {
    test(`a top level that is ${label} is refused at (top level)`, () => {
      const error = validationErrorFrom(document);
      const issue = `(top level): ${topLevelRule}; found ${found}`;
      expect(error.issues.map(describeIssue)).toEqual([issue]);
      expect(error.message).toBe(`the input file has the wrong top-level shape:\n  - (top level): ${topLevelRule}; found ${found}`);
      expect(error.invalidRecordCount).toBe(0);
      expect(error.recordCount).toBe(0);
    });
  }
});

test.describe('parseInputJson', () => {
  function syntaxErrorFrom(text: string): InputSyntaxError {
    return thrownBy(InputSyntaxError, () => parseInputJson(text));
  }

  test('valid JSON returns the parsed value', () => {
    expect(parseInputJson('{"executions": [{"statusCode": 200}]}')).toEqual({ executions: [{ statusCode: 200 }] });
  });

  test('a document with a leading byte-order mark parses', () => {
    expect(parseInputJson('\uFEFF[1, 2]')).toEqual([1, 2]);
  });

  test('malformed text is an InputSyntaxError with a fixed message prefix', () => {
    const error = syntaxErrorFrom('{"executions": [}');
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect(error).toBeInstanceOf(QualityEvidenceError);
    expect(error.name).toBe('InputSyntaxError');
    expect(error.message.startsWith('the input file is not well-formed JSON')).toBe(true);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  test('a trailing comma is located on its line and column', () => {
    const error = syntaxErrorFrom('{"a":1,}');
    expect([error.line, error.column]).toEqual([1, 8]);
    expect(error.message.startsWith('the input file is not well-formed JSON at line 1, column 8: ')).toBe(true);
  });

  test('truncated input is located just after its last character', () => {
    const error = syntaxErrorFrom('{"executions": [');
    expect([error.line, error.column]).toEqual([1, 17]);
    expect(error.message).toBe('the input file is not well-formed JSON at line 1, column 17: Unexpected end of JSON input');
  });

  test('an error on a later line is located by line and column', () => {
    // Line 3 is `    {"a": 1,}`; the offending `}` is its 13th character.
    const error = syntaxErrorFrom('{\n  "executions": [\n    {"a": 1,}\n  ]\n}');
    expect([error.line, error.column]).toEqual([3, 13]);
  });

  test('a document cut off on a later line is located after its last character', () => {
    // Line 3 is `    {"statusCode": 200` (22 characters), so the end is column 23.
    const error = syntaxErrorFrom('{\n  "executions": [\n    {"statusCode": 200');
    expect([error.line, error.column]).toEqual([3, 23]);
  });

  test('CRLF line endings count as one line break', () => {
    const error = syntaxErrorFrom('{\r\n  "a": 1,\r\n}');
    expect([error.line, error.column]).toEqual([3, 1]);
  });

  test('the byte-order mark does not shift the column', () => {
    const error = syntaxErrorFrom('\uFEFF{"a":1,}');
    expect([error.line, error.column]).toEqual([1, 8]);
  });

  test('empty text is an InputSyntaxError at line 1, column 1', () => {
    const error = syntaxErrorFrom('');
    expect([error.line, error.column]).toEqual([1, 1]);
  });
});

test.describe('the hot-path check and the zod schema', () => {
  const base = { statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 };
  const candidates: readonly unknown[] = [
    base,
    { ...base, id: 'exec-1' },
    { ...base, id: 7 },
    { ...base, id: null },
    { ...base, extra: { nested: true } },
    ...[99, 100, 101, 399, 400, 599, 600, 200.5, -0, Number.NaN, Number.POSITIVE_INFINITY, '200', null, true].map((statusCode) => ({
      ...base,
      statusCode,
    })),
    ...['GET /', ' get\t/orders ', 'GET\n/orders', 'GET  /a b', 'GET orders', 'G@T /x', '/orders', 'GET', '', 42, null].map((endpoint) => ({
      ...base,
      endpoint,
    })),
    ...[0, -0, 0.5, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE, 86_400_000, 86_400_000.001, 1e306, '12', null].map(
      (responseTimeMs) => ({ ...base, responseTimeMs }),
    ),
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: 'ECONNREFUSED' },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: '' },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: 'E CONN' },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: 'E'.repeat(64) },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: 'E'.repeat(65) },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: 7 },
    { endpoint: 'GET /orders', responseTimeMs: 3, errorCode: null },
    { ...base, errorCode: 'ECONNREFUSED' },
    { ...base, errorCode: undefined },
    ...[
      {},
      { dns: 1, connect: 2, tls: 3, wait: 4, receive: 5 },
      { wait: 0 },
      { wait: 86_400_000 },
      { wait: 86_400_000.001 },
      { receive: 1e306 },
      { dns: -1 },
      { wait: Number.NaN },
      { wait: '4' },
      { other: 'ignored' },
      5,
      null,
      [],
    ].map((timingMs) => ({ ...base, timingMs })),
    ...[
      {},
      { response: { validated: true, violationCount: 0 } },
      {
        response: {
          validated: true,
          violationCount: 2,
          violations: [
            { pointer: '/items/3/price', keyword: 'type' },
            { pointer: '', keyword: 'json' },
          ],
        },
        request: { validated: false, reason: 'notJson' },
      },
      {
        response: { validated: true, violationCount: 6, violations: Array.from({ length: 6 }, () => ({ pointer: '/a', keyword: 'type' })) },
      },
      { response: { validated: true, violationCount: 1, violations: [{ pointer: 'a', keyword: 'type' }] } },
      { response: { validated: true, violationCount: 1, violations: [{ pointer: '/a', keyword: '' }] } },
      { response: { validated: true, violationCount: 1, violations: [{ pointer: `/${'a'.repeat(1023)}`, keyword: 'k'.repeat(64) }] } },
      { response: { validated: true, violationCount: 1, violations: [{ pointer: `/${'a'.repeat(1024)}`, keyword: 'type' }] } },
      { response: { validated: true, violationCount: 1, violations: [{ pointer: '/a', keyword: 'k'.repeat(65) }] } },
      { response: { validated: true, violationCount: -1 } },
      { response: { validated: true, violationCount: 1.5 } },
      { response: { validated: true } },
      { response: { validated: false, reason: 'tooLarge' } },
      { response: { validated: false, reason: 'other' } },
      { response: { validated: false } },
      { response: { validated: 'yes', violationCount: 0 } },
      { request: null },
      { other: 'ignored' },
      null,
      [],
      'ok',
    ].map((bodyCheck) => ({ ...base, bodyCheck })),
    { statusCode: 200, endpoint: 'GET /orders' },
    {},
    [],
    [base],
    'GET /orders',
    0,
    null,
    undefined,
  ];

  for (const [index, candidate] of candidates.entries()) {
    test(`agree on candidate ${index}: ${candidate === undefined ? 'undefined' : JSON.stringify(candidate)}`, () => {
      expect(isExecutionRecord(candidate)).toBe(executionRecordSchema.safeParse(candidate).success);
    });
  }
});

test.describe('values in messages', () => {
  test('a deeply nested bad value is shown one level deep, without recursing into it', () => {
    let nested: unknown = 1;
    for (let depth = 0; depth < 100_000; depth++) nested = { a: nested };

    expect(onlyIssueFor({ statusCode: nested })).toBe(`executions[1].statusCode: ${statusCodeRule}; found {"a":{…}} (an object)`);
  });

  test('a circular value is shown without failing', () => {
    const circular: Record<string, unknown> = { code: 200 };
    circular['self'] = circular;

    expect(onlyIssueFor({ statusCode: circular })).toBe(
      `executions[1].statusCode: ${statusCodeRule}; found {"code":200,"self":{…}} (an object)`,
    );
  });

  test('a bigint is shown with its suffix', () => {
    expect(onlyIssueFor({ responseTimeMs: 10n })).toBe(`executions[1].responseTimeMs: ${responseTimeRule}; found 10n (a bigint)`);
  });

  test('control characters in a string value are escaped', () => {
    expect(onlyIssueFor({ endpoint: 'GET\u001b[2J' })).toBe(
      `executions[1].endpoint: ${endpointFormRule}; found "GET\\u001b[2J" (a string)`,
    );
  });
});
