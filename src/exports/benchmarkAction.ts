import type { QualityReport } from '../report/qualityReport.js';

/**
 * github-action-benchmark's `customSmallerIsBetter` format: a JSON array
 * of `{ name, unit, value, extra }`, one entry per endpoint and percentile
 * (p50, p95, p99), named `<endpoint> <percentile>`, in milliseconds. The
 * action keeps them on a data branch and draws one chart per name, so an
 * existing benchmark page shows the API's latency run after run.
 */

/** The percentiles exported for each endpoint. */
export const BENCHMARK_PERCENTILES = ['p50', 'p95', 'p99'] as const;

/** One entry of the array. */
export interface BenchmarkEntry {
  readonly name: string;
  readonly unit: 'ms';
  readonly value: number;
  readonly extra: string;
}

/** The entries, by endpoint in the report's order, then by percentile. */
export function benchmarkActionEntries(report: QualityReport): BenchmarkEntry[] {
  return report.endpoints.flatMap((entry) =>
    BENCHMARK_PERCENTILES.flatMap((percentile) => {
      const value = entry.responseTimeMs[percentile];
      if (value === null) return [];
      const source = entry.responseTimeMs.source === 'histogram' ? ', from merged histograms' : '';
      return [
        {
          name: `${entry.endpoint} ${percentile}`,
          unit: 'ms' as const,
          value,
          extra: `${entry.executionCount} ${entry.executionCount === 1 ? 'execution' : 'executions'}, ${entry.failedExecutionCount} failed${source}`,
        },
      ];
    }),
  );
}

/** The export's text: the array, two-space indented, with a final newline. */
export function renderBenchmarkAction(report: QualityReport): string {
  return `${JSON.stringify(benchmarkActionEntries(report), null, 2)}\n`;
}
