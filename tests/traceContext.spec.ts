import { parseTraceparent } from '../src/records/traceContext.js';
import { isExecutionRecord } from '../src/records/recordCheck.js';
import { executionRecordSchema } from '../src/records/executionRecord.js';
import { expect, test } from './support/test.js';

// W3C trace context on records (issue 37, first step): traceparent read as
// the W3C Trace Context recommendation reads it, and the record's ids held
// to its format by the schema and the fast check alike.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

test('a version 00 traceparent gives its trace and parent ids', () => {
  expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
  expect(parseTraceparent(` 00-${TRACE}-${SPAN}-00 `)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
});

test('a later version is read by its first four fields; version ff, zero ids, upper case or more fields in 00 give none', () => {
  expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-what-comes-next`)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
  for (const header of [
    `ff-${TRACE}-${SPAN}-01`,
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01-extra`,
    `00-${TRACE}-${SPAN}`,
    '',
  ])
    expect(parseTraceparent(header)).toBeUndefined();
});

test('a record’s traceId and spanId are held to the W3C format by the schema and the fast check alike', () => {
  const record = { endpoint: 'GET /a', statusCode: 200, responseTimeMs: 1 };
  for (const ids of [{ traceId: TRACE, spanId: SPAN }, { traceId: TRACE }]) {
    expect([executionRecordSchema.safeParse({ ...record, ...ids }).success, isExecutionRecord({ ...record, ...ids })]).toStrictEqual([
      true,
      true,
    ]);
  }
  for (const ids of [{ traceId: TRACE.toUpperCase() }, { traceId: '0'.repeat(32) }, { spanId: SPAN.slice(1) }, { spanId: 7 }]) {
    expect([executionRecordSchema.safeParse({ ...record, ...ids }).success, isExecutionRecord({ ...record, ...ids })]).toStrictEqual([
      false,
      false,
    ]);
  }
});
