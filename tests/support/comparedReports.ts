import { buildReport, compareWithBaseline, summariseExecutions, type QualityReport } from '../../src/index.js';
import type { ComparedReport } from '../../src/report/comment/commentFindings.js';

/**
 * Reports that hold a comparison with their base, made as a run with
 * `--baseline` makes them: from records, through the package's own summary
 * and comparison.
 */

/** One endpoint's calls: its label, how many, their times (by index) and their status. */
export interface CallSeries {
  readonly endpoint: string;
  readonly count: number;
  readonly time: (index: number) => number;
  readonly status?: (index: number) => number;
}

/** The report of these calls. */
export function reportOf(series: readonly CallSeries[], environment = 'staging'): QualityReport {
  const records = series.flatMap(({ endpoint, count, time, status }) =>
    Array.from({ length: count }, (_, index) => ({ endpoint, statusCode: status?.(index) ?? 200, responseTimeMs: time(index) })),
  );
  return buildReport(summariseExecutions(records, 750), { environment, slowResponseThresholdMs: 750 });
}

/** `head` with its `baseline` section against `base`. */
export function compared(head: QualityReport, base: QualityReport): ComparedReport {
  return { ...head, baseline: compareWithBaseline(head, base) };
}

/** A small API's calls: two busy endpoints, one that writes, one called too rarely to judge. */
export function apiCalls({ slowdown = 1, failing = 0 }: { slowdown?: number; failing?: number } = {}): CallSeries[] {
  return [
    { endpoint: 'GET /orders', count: 200, time: (index) => Math.round((40 + (index % 20)) * slowdown * 10) / 10 },
    { endpoint: 'GET /users', count: 200, time: (index) => 20 + (index % 10) },
    { endpoint: 'POST /orders', count: 100, time: (index) => 60 + (index % 10), status: (index) => (index < failing ? 500 : 201) },
    { endpoint: 'GET /health', count: 3, time: () => 5 },
  ];
}
