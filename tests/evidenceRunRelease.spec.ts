import { expect, test } from './support/test.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';

// A run lets go of its tallies before its report is written (openRun's publish): at 50,000 endpoints they are about
// 120 MB that writing the report does not need. What publishing still asks of the run (its spans) answers; anything
// that would need the tallies refuses plainly rather than answer from an emptied run.

function finishedRun() {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750, spanLimit: 10 });
  const records = [
    {
      statusCode: 200,
      endpoint: 'GET /users',
      responseTimeMs: 12,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      parentSpanId: 'b7ad6b7169203331',
      startedAtMs: 1_795_000_000_000,
    },
    { statusCode: 503, endpoint: 'GET /orders', responseTimeMs: 40 },
  ];
  records.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath: '', index }));
  });
  return { run, report: run.finish() };
}

test('a released run still gives the spans it kept, and the report made before is whole', () => {
  const { run, report } = finishedRun();
  const spans = run.spans();
  const text = JSON.stringify(report);
  run.release();
  expect(run.spans()).toBe(spans);
  expect(spans?.length).toBe(1);
  expect(JSON.stringify(report)).toBe(text);
});

test('a released run refuses to take, absorb, finish or name the endpoints of tests', () => {
  const { run } = finishedRun();
  run.release();
  const refusal = 'the evidence run was released: nothing can be taken or asked of it';
  expect(() => {
    run.take({ statusCode: 200, endpoint: 'GET /x', responseTimeMs: 1 }, () => ({ kind: 'list', listPath: '', index: 0 }));
  }).toThrow(refusal);
  expect(() => run.finish()).toThrow(refusal);
  expect(() => run.endpointsOfTests([{ file: 'a.spec.ts', line: 1, column: 1, title: 't' }])).toThrow(refusal);
  expect(() => {
    run.takeBatch({ records: [], location: () => ({ kind: 'list', listPath: '', index: 0 }) } as never);
  }).toThrow(refusal);
});
