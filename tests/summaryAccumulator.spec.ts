import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { CanonicalExecutionRecord } from '../src/index.js';
import { createExecutionAccumulator, summariseExecutions } from '../src/summary/summariseExecutions.js';

// The summary is a mergeable accumulator: summarise(a ++ b) = merge(summarise(a), summarise(b)),
// exactly, for any split, so files, shards and worker threads combine without re-reading.

const endpoints = ['GET /orders', 'POST /orders', 'GET /Orders', 'DELETE /orders/7', 'GET /b', 'GET /a'];
const record: fc.Arbitrary<CanonicalExecutionRecord> = fc.oneof(
  fc.record({
    statusCode: fc.integer({ min: 100, max: 599 }),
    endpoint: fc.constantFrom(...endpoints),
    responseTimeMs: fc.oneof(fc.constantFrom(0, 750, 751), fc.double({ min: 0, max: 5000, noNaN: true })),
  }),
  fc.record({ errorCode: fc.constantFrom('ECONNREFUSED', 'ETIMEDOUT'), endpoint: fc.constantFrom(...endpoints), responseTimeMs: fc.double({ min: 0, max: 5000, noNaN: true }) }),
);

function accumulate(records: readonly CanonicalExecutionRecord[]) {
  const accumulator = createExecutionAccumulator(750);
  for (const item of records) accumulator.add(item);
  return accumulator;
}

test('merging the summaries of two parts gives the summary of the whole, for any split', () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 60 }), fc.nat(), (records, cut) => {
      const at = records.length === 0 ? 0 : cut % (records.length + 1);
      const merged = accumulate(records.slice(0, at));
      merged.merge(accumulate(records.slice(at)));
      expect(merged.result()).toStrictEqual(summariseExecutions(records, 750));
    }),
    { numRuns: 300 },
  );
});

test('merging plain data (as from a worker thread) equals merging the accumulator, in any order of parts', () => {
  fc.assert(
    fc.property(fc.array(fc.array(record, { maxLength: 20 }), { maxLength: 6 }), (parts) => {
      const fromData = createExecutionAccumulator(750);
      for (const part of [...parts].reverse()) fromData.merge(structuredClone(accumulate(part).toData()));
      expect(fromData.result()).toStrictEqual(summariseExecutions(parts.flat(), 750));
    }),
    { numRuns: 200 },
  );
});

test('counting a record by its fields equals adding the record', () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 60 }), (records) => {
      const byFields = createExecutionAccumulator(750);
      for (const item of records) byFields.addExecution(item.endpoint, item.statusCode, item.responseTimeMs);
      expect(byFields.result()).toStrictEqual(accumulate(records).result());
    }),
  );
});
