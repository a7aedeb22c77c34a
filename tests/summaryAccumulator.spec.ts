import { expect, test } from './support/test.js';
import fc from 'fast-check';
import type { CanonicalExecutionRecord } from '../src/index.js';
import { ExecutionAccumulator, summariseExecutions } from '../src/summary/executionAccumulator.js';
import { describeRuns, describeSorted, ExactSum, nearestRank, type LatencyStatistics } from '../src/summary/latencySamples.js';
import { statusSet } from '../src/records/statusList.js';
import { histogramOfRuns, rankGuide } from '../src/summary/latencyHistogram.js';
import { EndpointEvidence, type FailedExecution } from '../src/summary/endpointEvidence.js';
import { propertyParameters } from './support/properties.js';
import { buildReport } from '../src/report/qualityReport.js';
import { reportPart } from '../src/run/mergeReports.js';

// The summary is a mergeable accumulator: summarise(a ++ b) = merge(summarise(a), summarise(b)),
// exactly, for any split, so files, shards and worker threads combine without re-reading.

const endpoints = ['GET /orders', 'POST /orders', 'GET /Orders', 'DELETE /orders/7', 'GET /b', 'GET /a'];
const time = fc.oneof(fc.constantFrom(0, 750, 751, 12.5), fc.double({ min: 0, max: 5000, noNaN: true, noDefaultInfinity: true }));
const record: fc.Arbitrary<CanonicalExecutionRecord> = fc.oneof(
  fc.record(
    {
      statusCode: fc.integer({ min: 100, max: 599 }),
      endpoint: fc.constantFrom(...endpoints),
      responseTimeMs: time,
      id: fc.string({ maxLength: 4 }),
      timingMs: fc.record({ connect: fc.constantFrom(0, 3), wait: time }, { requiredKeys: [] }),
    },
    { requiredKeys: ['statusCode', 'endpoint', 'responseTimeMs'] },
  ),
  fc.record({ errorCode: fc.constantFrom('ECONNREFUSED', 'ETIMEDOUT'), endpoint: fc.constantFrom(...endpoints), responseTimeMs: time }),
);

function accumulate(records: readonly CanonicalExecutionRecord[]): ExecutionAccumulator {
  const accumulator = new ExecutionAccumulator(750);
  for (const item of records) accumulator.add(item);
  return accumulator;
}

test.describe('the merge law', () => {
  test('merging the summaries of two parts gives the summary of the whole, for any split', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), fc.nat(), (records, cut) => {
        const at = records.length === 0 ? 0 : cut % (records.length + 1);
        const merged = accumulate(records.slice(0, at));
        merged.merge(accumulate(records.slice(at)));
        expect(merged.result()).toStrictEqual(summariseExecutions(records, 750));
      }),
      propertyParameters(300),
    );
  });

  test('merging plain data (as from a worker thread, its samples sorted or not), part after part, equals summarising their concatenation', () => {
    fc.assert(
      fc.property(fc.array(fc.array(record, { maxLength: 20 }), { maxLength: 6 }), fc.boolean(), (parts, sorted) => {
        const fromData = new ExecutionAccumulator(750);
        for (const part of parts) fromData.merge(structuredClone(accumulate(part).toData({ sorted })));
        expect(fromData.result()).toStrictEqual(summariseExecutions(parts.flat(), 750));
      }),
      propertyParameters(200),
    );
  });

  test(`a part sealed on its thread (each chunk of 1,024 samples sorted where it is, one sum and histogram for them all) and \
taken in place, part after part, equals summarising their concatenation`, () => {
    // Two endpoints and two statuses over 3,000 to 6,000 records a part: a status's samples fill more than one chunk.
    const many = fc.record({
      statusCode: fc.constantFrom(200, 503),
      endpoint: fc.constantFrom('GET /a', 'GET /b'),
      responseTimeMs: time,
      timingMs: fc.record({ wait: time }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(many, { minLength: 3_000, maxLength: 6_000, size: 'max' }), { minLength: 1, maxLength: 3 }),
        (parts) => {
          const taken = new ExecutionAccumulator(750);
          for (const part of parts) {
            const sealed = accumulate(part);
            sealed.seal();
            taken.mergeTaking(sealed);
          }
          expect(taken.result()).toStrictEqual(summariseExecutions(parts.flat(), 750));
        },
      ),
      // A failure is printed as found: shrinking thousands of records takes minutes.
      { ...propertyParameters(30), endOnFailure: true },
    );
  });

  test('every statistic but the order of tied slowest executions is the same whatever the order of the records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (records) => {
        const { slowestExecutions: forwardSlowest, ...forward } = summariseExecutions(records, 750);
        const { slowestExecutions: backwardSlowest, ...backward } = summariseExecutions([...records].reverse(), 750);
        expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
        expect(backwardSlowest.map((execution) => execution.responseTimeMs)).toStrictEqual(
          forwardSlowest.map((execution) => execution.responseTimeMs),
        );
      }),
      propertyParameters(200),
    );
  });
});

test(`what a report says, taken into an accumulator, crosses a thread boundary as plain data (toData, a structured clone, \
merge) and gives what it gave taken in place`, () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 60 }), fc.nat(), (records, cut) => {
      const at = records.length === 0 ? 0 : cut % (records.length + 1);
      const reportOf = (part: readonly CanonicalExecutionRecord[]) =>
        buildReport(accumulate(part).result(), { environment: 'p', slowResponseThresholdMs: 750 });
      const partOf = (part: readonly CanonicalExecutionRecord[]) => reportPart(reportOf(part)).summary as ExecutionAccumulator;
      const taken = new ExecutionAccumulator(750);
      const copied = new ExecutionAccumulator(750);
      for (const part of [records.slice(0, at), records.slice(at)]) {
        taken.mergeTaking(partOf(part));
        copied.merge(structuredClone(partOf(part).toData()));
      }
      expect(copied.result()).toStrictEqual(taken.result());
    }),
    propertyParameters(1_000),
  );
});

test.describe('percentiles against a naive reference', () => {
  // The reference: sort a copy, index by nearest rank ceil(p × n / 100) computed with BigInt, and sum in plain
  // arithmetic (the generated times are multiples of 1/8 or 1/1024 that add up exactly in any order).
  function reference(values: readonly number[]): LatencyStatistics {
    if (values.length === 0) return { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null };
    const sorted = [...values].sort((a, b) => a - b);
    const at = (p: number): number => {
      const n = BigInt(sorted.length);
      const rank = (BigInt(p) * n + 99n) / 100n;
      return sorted[Number(rank) - 1]!;
    };
    const mean = Math.round((sorted.reduce((sum, value) => sum + value, 0) / sorted.length) * 1000) / 1000 + 0;
    return { min: sorted[0]!, mean, p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: sorted[sorted.length - 1]! };
  }

  test('the nearest rank is exact: 90 × 10 / 100 is rank 9, and 1 or 2 values give ranks 1 and 1 or 2', () => {
    expect(nearestRank(90, 10)).toBe(9);
    expect(nearestRank(95, 10)).toBe(10);
    expect([50, 90, 95, 99].map((p) => nearestRank(p, 1))).toStrictEqual([1, 1, 1, 1]);
    expect([50, 90, 95, 99].map((p) => nearestRank(p, 2))).toStrictEqual([1, 2, 2, 2]);
    expect(nearestRank(99, 100)).toBe(99);
    expect(nearestRank(99, 101)).toBe(100);
  });

  test('one endpoint: the statistics equal the reference, with ties and equal values', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(1, 2, 2, 3),
            fc.integer({ min: 0, max: 100_000 }).map((n) => n / 8),
          ),
          { minLength: 1, maxLength: 300 },
        ),
        (values) => {
          expect(
            summariseExecutions(
              values.map((responseTimeMs) => ({ statusCode: 200, endpoint: 'GET /a', responseTimeMs })),
              750,
            ).responseTimeMs,
          ).toStrictEqual(reference(values));
        },
      ),
      propertyParameters(300),
    );
  });

  test('200 endpoints: each endpoint and the whole run equal the reference', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 199 }),
            fc.integer({ min: 0, max: 2_000_000 }).map((n) => n / 1024),
          ),
          { maxLength: 2000 },
        ),
        (pairs) => {
          const summary = summariseExecutions(
            pairs.map(([endpoint, responseTimeMs]) => ({
              statusCode: 200,
              endpoint: `GET /e${String(endpoint).padStart(3, '0')}`,
              responseTimeMs,
            })),
            750,
          );
          expect(summary.responseTimeMs).toStrictEqual(reference(pairs.map(([, value]) => value)));
          for (const entry of summary.endpoints) {
            const index = Number(entry.endpoint.slice(-3));
            expect(entry.responseTimeMs).toStrictEqual(
              reference(pairs.filter(([endpoint]) => endpoint === index).map(([, value]) => value)),
            );
          }
        },
      ),
      propertyParameters(40),
    );
  });

  test('sorted runs describe like their sorted concatenation', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 30 }), { maxLength: 8 }), (arrays) => {
        const runs = arrays.map((array) => Float64Array.from(array).sort());
        const sum = new ExactSum();
        for (const run of runs) sum.addAll(run);
        expect(describeRuns(runs, sum)).toStrictEqual(describeSorted(Float64Array.from(arrays.flat()).sort()));
      }),
      propertyParameters(100),
    );
  });

  test('the exact sum is the same in any order, where adding floats in turn is not', () => {
    const values = [1e16, 1, -1e16, 0.1, 0.2, 0.3];
    const sums = [values, [...values].reverse(), [0.3, 1e16, 0.2, -1e16, 1, 0.1]].map((order) => {
      const sum = new ExactSum();
      for (const value of order) sum.add(value);
      return sum.value();
    });
    expect(sums).toStrictEqual([1.6, 1.6, 1.6]);
    expect(values.reduce((total, value) => total + value, 0)).not.toBe(1.6);
  });

  test('no executions give null statistics, never 0', () => {
    expect(summariseExecutions([], 750).responseTimeMs).toStrictEqual({
      min: null,
      mean: null,
      p50: null,
      p90: null,
      p95: null,
      p99: null,
      max: null,
    });
  });

  test('the mean is rounded to 3 decimals', () => {
    const summary = summariseExecutions(
      [1, 2, 2].map((responseTimeMs) => ({ statusCode: 200, endpoint: 'GET /a', responseTimeMs })),
      750,
    );
    expect(summary.responseTimeMs.mean).toBe(1.667);
  });
});

test(`samples moved to another thread (their slabs transferred, detached here) leave this thread counting on: the next \
samples go into a new slab`, () => {
  const records = (count: number, endpoint: string) =>
    Array.from({ length: count }, (_, index): CanonicalExecutionRecord => ({ statusCode: 200, endpoint, responseTimeMs: index % 977 }));
  const moved = accumulate(records(3_000, 'GET /a')).toData({ sorted: true, last: true });
  const received = structuredClone(moved, { transfer: ExecutionAccumulator.transferables(moved) });
  expect(moved.samples.every((run) => run.length === 0)).toBe(true);
  const after = records(3_000, 'GET /b');
  const merged = new ExecutionAccumulator(750);
  merged.merge(received);
  for (const item of after) merged.add(item);
  expect(merged.result()).toStrictEqual(summariseExecutions([...records(3_000, 'GET /a'), ...after], 750));
});

test('a failed call at a line is admitted by admitsAtLine exactly as by admits, whatever was kept before (tests, other files, later lines)', () => {
  const kept = fc.record({
    statusCode: fc.constantFrom(404, 500, 503, undefined),
    file: fc.constantFrom('a.ndjson', 'b.ndjson'),
    line: fc.integer({ min: 1, max: 40 }),
    test: fc.boolean(),
  });
  const asked = fc.record({
    statusCode: fc.constantFrom(404, 422, 500, 503),
    file: fc.constantFrom('a.ndjson', 'b.ndjson'),
    line: fc.integer({ min: 1, max: 40 }),
  });
  fc.assert(
    fc.property(fc.array(kept, { maxLength: 12 }), asked, (calls, { statusCode, file, line }) => {
      const evidence = new EndpointEvidence();
      calls.forEach((call, index) => {
        const execution: FailedExecution = {
          method: 'GET',
          path: '/a',
          ...(call.statusCode === undefined ? { errorCode: 'ETIMEDOUT' } : { statusCode: call.statusCode }),
          responseTimeMs: index,
          location: { kind: 'line', file: call.file, line: call.line },
          ...(call.test ? { test: { file: 'a.spec.ts', line: 3, column: 1, title: 't' } } : {}),
        };
        evidence.add(true, call.statusCode === undefined || call.statusCode >= 500, undefined, () => execution);
      });
      return evidence.admitsAtLine(statusCode, file, line) === evidence.admits({ statusCode, location: { kind: 'line', file, line } });
    }),
    propertyParameters(1000),
  );
});

test('a failed call is admitted (EndpointEvidence.admits, asked before its record is made) exactly when adding it keeps it', () => {
  const call = fc.record({
    statusCode: fc.constantFrom(404, 500, 503, undefined),
    file: fc.constantFrom('a.ndjson', 'b.ndjson'),
    line: fc.integer({ min: 1, max: 40 }),
  });
  fc.assert(
    fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
      const evidence = new EndpointEvidence();
      calls.forEach(({ statusCode, file, line }, index) => {
        const location = { kind: 'line', file, line } as const;
        const execution: FailedExecution = {
          method: 'GET',
          path: '/a',
          ...(statusCode === undefined ? { errorCode: 'ETIMEDOUT' } : { statusCode }),
          responseTimeMs: index,
          location,
        };
        const admitted = evidence.admits({ ...(statusCode === undefined ? {} : { statusCode }), location });
        evidence.add(true, statusCode === undefined || statusCode >= 500, undefined, () => execution);
        expect(admitted).toBe(evidence.result().failedExecutions?.includes(execution) === true);
      });
    }),
    propertyParameters(500),
  );
});

test.describe('per endpoint', () => {
  test('an endpoint entry counts its executions, failures, slow ones, no-response ones and statuses', () => {
    const summary = summariseExecutions(
      [
        { statusCode: 201, endpoint: 'POST /orders', responseTimeMs: 10 },
        { statusCode: 500, endpoint: 'POST /orders', responseTimeMs: 800 },
        { statusCode: 201, endpoint: 'POST /orders', responseTimeMs: 20 },
        { errorCode: 'ECONNRESET', endpoint: 'POST /orders', responseTimeMs: 5 },
      ],
      750,
    );
    expect(summary.endpoints).toStrictEqual([
      {
        endpoint: 'POST /orders',
        executionCount: 4,
        failedExecutionCount: 2,
        expectedErrorCount: 0,
        slowExecutionCount: 1,
        noResponseCount: 1,
        serverErrorCount: 2,
        statusCodes: { '201': 2, '500': 1 },
        responseTimeMs: { min: 5, mean: 208.75, p50: 10, p90: 800, p95: 800, p99: 800, max: 800 },
        // Bucket ⌈ln t / ln γ⌉, γ = 1.01 / 0.99: ln 5 / ln γ = 80.5, ln 10 / ln γ = 115.1, ln 20 / ln γ = 149.8, ln 800 / ln γ = 334.2.
        latencyHistogram: {
          relativeAccuracy: 0.01,
          zeroCount: 0,
          bins: [
            [81, 1],
            [116, 1],
            [150, 1],
            [335, 1],
          ],
        },
        // By status code, then by error code: each its own count, sum and histogram, together the endpoint's.
        latencyByStatus: [
          {
            outcome: 201,
            executionCount: 2,
            totalMs: 30,
            latencyHistogram: {
              relativeAccuracy: 0.01,
              zeroCount: 0,
              bins: [
                [116, 1],
                [150, 1],
              ],
            },
          },
          { outcome: 500, executionCount: 1, totalMs: 800, latencyHistogram: { relativeAccuracy: 0.01, zeroCount: 0, bins: [[335, 1]] } },
          {
            outcome: 'ECONNRESET',
            executionCount: 1,
            totalMs: 5,
            latencyHistogram: { relativeAccuracy: 0.01, zeroCount: 0, bins: [[81, 1]] },
          },
        ],
      },
    ]);
    expect(summary.statusCodes).toStrictEqual({ '201': 2, '500': 1 });
  });

  test('times by status are summed exactly and rounded to the microsecond; times of 0 are counted apart', () => {
    const summary = summariseExecutions(
      [0.1, 0.2, 0, 0.0004].map((responseTimeMs) => ({ statusCode: 200, endpoint: 'GET /a', responseTimeMs })),
      750,
    );
    expect(summary.endpoints[0]!.latencyByStatus).toStrictEqual([
      { outcome: 200, executionCount: 4, totalMs: 0.3, latencyHistogram: summary.endpoints[0]!.latencyHistogram },
    ]);
    expect(summary.endpoints[0]!.latencyHistogram.zeroCount).toBe(1);
  });

  test('status code keys come out ascending', () => {
    const summary = summariseExecutions(
      [503, 200, 404, 200].map((statusCode) => ({ statusCode, endpoint: 'GET /a', responseTimeMs: 1 })),
      750,
    );
    expect(JSON.stringify(summary.statusCodes)).toBe('{"200":2,"404":1,"503":1}');
  });

  test('timing phases give the time to first byte and the new connections; an endpoint without phases has neither field', () => {
    const summary = summariseExecutions(
      [
        { statusCode: 200, endpoint: 'GET /a', responseTimeMs: 30, timingMs: { connect: 4, wait: 20 } },
        { statusCode: 200, endpoint: 'GET /a', responseTimeMs: 12, timingMs: { connect: 0, wait: 10 } },
        { statusCode: 200, endpoint: 'GET /a', responseTimeMs: 11, timingMs: { wait: 9 } },
        { statusCode: 200, endpoint: 'GET /b', responseTimeMs: 11 },
      ],
      750,
    );
    expect(summary.endpoints[0]).toMatchObject({
      timeToFirstByteMs: { min: 9, mean: 13, p50: 10, p90: 20, p95: 20, p99: 20, max: 20 },
      newConnectionCount: 1,
    });
    expect(Object.keys(summary.endpoints[1]!)).not.toContain('timeToFirstByteMs');
    expect(Object.keys(summary.endpoints[1]!)).not.toContain('newConnectionCount');
  });
});

test.describe('the slowest executions', () => {
  test('are the 5 slowest, slowest first, ties in input order, with their id', () => {
    const times = [5, 9, 1, 9, 7, 3, 9, 8];
    const summary = summariseExecutions(
      times.map((responseTimeMs, index) => ({ statusCode: 200, endpoint: 'GET /a', responseTimeMs, id: `r${index}` })),
      750,
    );
    expect(summary.slowestExecutions.map((execution) => execution.id)).toStrictEqual(['r1', 'r3', 'r6', 'r7', 'r4']);
  });

  test('a call with no response shows its error code instead of a status', () => {
    const summary = summariseExecutions([{ errorCode: 'ETIMEDOUT', endpoint: 'GET /a', responseTimeMs: 30_000 }], 750);
    expect(summary.slowestExecutions).toStrictEqual([{ endpoint: 'GET /a', errorCode: 'ETIMEDOUT', responseTimeMs: 30_000 }]);
  });
});

test.describe('expected statuses', () => {
  test('by default a status of 400 or above fails and none is an expected error', () => {
    const summary = summariseExecutions(
      [399, 400, 404].map((statusCode) => ({ statusCode, endpoint: 'GET /a', responseTimeMs: 1 })),
      750,
    );
    expect([summary.failedExecutionCount, summary.expectedErrorCount]).toStrictEqual([2, 0]);
  });

  test('an expected 404 is an expected error, not a failure, and stays in statusCodes', () => {
    const summary = summariseExecutions(
      [200, 404, 500].map((statusCode) => ({ statusCode, endpoint: 'GET /a', responseTimeMs: 1 })),
      750,
      {
        expectedStatuses: statusSet('100-399,404'),
      },
    );
    expect([summary.failedExecutionCount, summary.expectedErrorCount, summary.statusCodes]).toStrictEqual([
      1,
      1,
      { '200': 1, '404': 1, '500': 1 },
    ]);
  });

  test('a status outside the run-wide list fails even below 400', () => {
    const summary = summariseExecutions([{ statusCode: 301, endpoint: 'GET /a', responseTimeMs: 1 }], 750, {
      expectedStatuses: statusSet('200-299'),
    });
    expect(summary.failureCountByEndpoint).toStrictEqual({ 'GET /a': 1 });
  });

  test('a per-endpoint list overrides the run-wide rule for that endpoint only', () => {
    const summary = summariseExecutions(
      ['DELETE /a', 'DELETE /b'].map((endpoint) => ({ statusCode: 403, endpoint, responseTimeMs: 1 })),
      750,
      { expectedStatusesByEndpoint: new Map([['DELETE /a', statusSet('200-299,403')]]) },
    );
    expect([summary.failureCountByEndpoint, summary.expectedErrorCount]).toStrictEqual([{ 'DELETE /b': 1 }, 1]);
  });

  test("a record's own list wins over the endpoint's and the run's", () => {
    const accumulator = new ExecutionAccumulator(750, { expectedStatusesByEndpoint: new Map([['GET /a', statusSet('200')]]) });
    accumulator.addExecution('GET /a', 404, 1, statusSet('404'));
    accumulator.addExecution('GET /a', 404, 1);
    expect([accumulator.result().failedExecutionCount, accumulator.result().expectedErrorCount]).toStrictEqual([1, 1]);
  });

  test('a call with no response fails whatever is expected', () => {
    const summary = summariseExecutions([{ errorCode: 'ECONNREFUSED', endpoint: 'GET /a', responseTimeMs: 1 }], 750, {
      expectedStatuses: statusSet('100-599'),
    });
    expect(summary.failedExecutionCount).toBe(1);
  });
});

test.describe('selection over many runs', () => {
  const describeBoth = (arrays: readonly number[][]) => {
    const runs = arrays.map((array) => Float64Array.from(array).sort());
    const sum = new ExactSum();
    for (const run of runs) sum.addAll(run);
    return [describeRuns(runs, sum), describeSorted(Float64Array.from(arrays.flat()).sort())];
  };

  test('thousands of equal times in several runs, and times that differ in their last bits', () => {
    const [fromRuns, joined] = describeBoth([Array(5000).fill(12.5), Array(3000).fill(12.5), [12.5 + 2e-15, 0, 7, 12.5 - 2e-15]]);
    expect(fromRuns).toStrictEqual(joined);
  });

  test('zero, tiny and huge times', () => {
    const [fromRuns, joined] = describeBoth([[0, 0, 5e-324, 1e-300], [0, 1e300, 3], [Number.MAX_VALUE]]);
    expect(fromRuns).toStrictEqual(joined);
  });

  test('a few long runs, searched rather than joined, describe like their sorted concatenation, ties and tiny gaps included', () => {
    // Over 512 samples in at most six runs: the percentiles are selected over the runs (describeRuns joins fewer or more scattered ones).
    const time = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.double({ min: 0, max: 5000, noNaN: true }),
      fc.constantFrom(12.5, 12.5 + 2e-15, 12.5 - 2e-15),
    );
    fc.assert(
      fc.property(fc.array(fc.array(time, { minLength: 200, maxLength: 1500 }), { minLength: 2, maxLength: 6 }), (arrays) => {
        const [fromRuns, joined] = describeBoth(arrays);
        return JSON.stringify(fromRuns) === JSON.stringify(joined);
      }),
      propertyParameters(60),
    );
  });
});

test.describe('selection guided by a histogram', () => {
  const time = fc.oneof(
    fc.integer({ min: 0, max: 300 }),
    fc.double({ min: 0, max: 5000, noNaN: true }),
    fc.constantFrom(0, 12.5, 12.5 + 2e-15),
  );
  const longRuns = fc.array(fc.array(time, { minLength: 200, maxLength: 1500 }), { minLength: 2, maxLength: 6 });

  test('guided by their own histogram, a few long runs describe like their sorted concatenation', () => {
    fc.assert(
      fc.property(longRuns, (arrays) => {
        const runs = arrays.map((array) => Float64Array.from(array).sort());
        const sum = new ExactSum();
        for (const run of runs) sum.addAll(run);
        const guided = describeRuns(runs, sum, rankGuide([histogramOfRuns(runs)]));
        return JSON.stringify(guided) === JSON.stringify(describeSorted(Float64Array.from(arrays.flat()).sort()));
      }),
      propertyParameters(60),
    );
  });

  test('a guide whose bounds miss the rank costs a search, never a wrong percentile', () => {
    fc.assert(
      fc.property(
        longRuns,
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.double({ min: 0, max: 5000, noNaN: true }),
        (arrays, a, b) => {
          const runs = arrays.map((array) => Float64Array.from(array).sort());
          const sum = new ExactSum();
          for (const run of runs) sum.addAll(run);
          const guided = describeRuns(runs, sum, () => [Math.min(a, b), Math.max(a, b)]);
          return JSON.stringify(guided) === JSON.stringify(describeSorted(Float64Array.from(arrays.flat()).sort()));
        },
      ),
      propertyParameters(60),
    );
  });
});

test.describe('letting go of the samples', () => {
  test('statistics taken letting go of each endpoint’s samples are the statistics taken keeping them, for any records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (records) => {
        expect(accumulate(records).result({ letGoOfSamples: true })).toEqual(accumulate(records).result());
      }),
      propertyParameters(),
    );
  });

  test('statistics are taken once when the samples are let go: a second time throws, where keeping them they are taken again alike', () => {
    const records = [{ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 5 }];
    const kept = accumulate(records);
    const letGo = accumulate(records);

    letGo.result({ letGoOfSamples: true });

    expect(kept.result()).toEqual(kept.result());
    expect(() => letGo.result()).toThrow('the samples were let go when the statistics were taken: they can be taken once');
  });
});
