import fc from 'fast-check';
import { expect, test } from './support/test.js';
import { buildReport, formatReport, summariseExecutions } from '../src/index.js';
import { formatReportPieces } from '../src/report/renderers/json.js';

// quality-summary.json is written an endpoint at a time (at 50,000 endpoints the whole indented text never exists
// beside the result): its bytes must be exactly those of the whole report stringified with a 2-space indent, each
// histogram's bins on one line, an endpoint's sole status without its histogram.

/**
 * The reference: the whole report, its sole statuses' histograms left out (schemaVersion 2), stringified at once,
 * each histogram's bins marked and then put on one line.
 */
function referenceText(report: object): string {
  const copy = JSON.parse(JSON.stringify(report)) as { endpoints: { latencyByStatus?: Record<string, unknown>[] }[] };
  for (const { latencyByStatus } of copy.endpoints) if (latencyByStatus?.length === 1) delete latencyByStatus[0]!['latencyHistogram'];
  const indented = JSON.stringify(
    copy,
    function (this: object, key: string, value: unknown) {
      return key === 'bins' && 'relativeAccuracy' in this && Array.isArray(value)
        ? `\u0001${(value as [number, number][]).map(([bucket, count]) => `[${bucket}, ${count}]`).join(', ')}`
        : value;
    },
    2,
  );
  return `${indented.replace(/"bins": "\\u0001([^"]*)"/g, '"bins": [$1]')}\n`;
}

const record = fc.record({
  endpoint: fc.constantFrom('GET /a', 'POST /b "quoted"', 'GET /ü/☃', 'DELETE /c\\d'),
  statusCode: fc.constantFrom(200, 201, 404, 500, 503),
  responseTimeMs: fc.double({ min: 0, max: 5000, noNaN: true }),
});

test('the report written an endpoint at a time is the text of the whole report, bins on one line, for any records', () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 40 }), (records) => {
      const report = buildReport(summariseExecutions(records, 750), { environment: 'ci', slowResponseThresholdMs: 750 });
      const text = formatReport(report);
      expect(text).toBe(referenceText(report));
      expect([...formatReportPieces(report)].join('')).toBe(text);
    }),
    { numRuns: 60 },
  );
});

test('a report of no endpoints writes its empty list as []', () => {
  const report = buildReport(summariseExecutions([], 750), { environment: 'ci', slowResponseThresholdMs: 750 });
  expect(formatReport(report)).toContain('\n  "endpoints": [],\n');
  expect(formatReport(report)).toBe(referenceText(report));
});
