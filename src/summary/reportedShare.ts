import { mergedHistogram, type LatencyHistogram } from './latencyHistogram.js';
import { ExactSum } from './latencySamples.js';
import type { ShareCounts, SourceCounts } from './sourceShare.js';

/**
 * What a report brings to the tallies beside what records bring: a report
 * keeps no time, only each outcome's count, exact sum and histogram (in the
 * endpoint's sample buffers, see SampleBuffer.adoptSummarised), the bounds
 * of the times, and its executions by source as counts. Kept apart from the
 * tallies' own counts, so that what records brought is known as the rest.
 */

/** What reports said of one endpoint, besides its times by outcome, as plain data. */
export interface ReportedShareData extends ShareCounts {
  /** The fastest and the slowest of the times the reports summarised. */
  readonly min: number;
  readonly max: number;
  /** Their executions by source: a report that names no source made every call through an API client. */
  readonly api: SourceCounts;
  readonly browser: SourceCounts;
}

/** What reports said of one endpoint, added up over the reports. */
export class ReportedShare {
  executionCount = 0;
  failedExecutionCount = 0;
  noResponseCount = 0;
  slowExecutionCount = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  readonly api = { executionCount: 0, failedExecutionCount: 0 };
  readonly browser = { executionCount: 0, failedExecutionCount: 0 };

  merge(data: ReportedShareData): void {
    this.executionCount += data.executionCount;
    this.failedExecutionCount += data.failedExecutionCount;
    this.noResponseCount += data.noResponseCount;
    this.slowExecutionCount += data.slowExecutionCount;
    this.min = Math.min(this.min, data.min);
    this.max = Math.max(this.max, data.max);
    for (const source of ['api', 'browser'] as const) {
      this[source].executionCount += data[source].executionCount;
      this[source].failedExecutionCount += data[source].failedExecutionCount;
    }
  }

  toData(): ReportedShareData {
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, min, max, api, browser } = this;
    return {
      executionCount,
      failedExecutionCount,
      noResponseCount,
      slowExecutionCount,
      min,
      max,
      api: { ...api },
      browser: { ...browser },
    };
  }
}

/**
 * One source's executions over a whole report, as plain data: counts, the
 * partials of their times' exact sum, their histograms (added up only if
 * the run is split by source) and bounds.
 */
export interface ReportedTotalsData extends ShareCounts {
  readonly sum: readonly number[];
  readonly histograms: readonly LatencyHistogram[];
  /** Null when the source made no execution. */
  readonly min: number | null;
  readonly max: number | null;
}

/** One source's executions over the reports taken, added up. */
export class ReportedTotals {
  executionCount = 0;
  failedExecutionCount = 0;
  noResponseCount = 0;
  slowExecutionCount = 0;
  readonly sum = new ExactSum();
  private readonly histograms: LatencyHistogram[] = [];
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;

  merge(data: ReportedTotalsData): void {
    this.executionCount += data.executionCount;
    this.failedExecutionCount += data.failedExecutionCount;
    this.noResponseCount += data.noResponseCount;
    this.slowExecutionCount += data.slowExecutionCount;
    this.sum.merge(data.sum);
    this.histograms.push(...data.histograms);
    if (data.min !== null) this.min = Math.min(this.min, data.min);
    if (data.max !== null) this.max = Math.max(this.max, data.max);
  }

  /** The histogram of every time taken. */
  histogram(): LatencyHistogram {
    return mergedHistogram(this.histograms);
  }

  toData(): ReportedTotalsData {
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount } = this;
    const bounded = this.min <= this.max;
    return {
      executionCount,
      failedExecutionCount,
      noResponseCount,
      slowExecutionCount,
      sum: this.sum.toPartials(),
      histograms: [...this.histograms],
      min: bounded ? this.min : null,
      max: bounded ? this.max : null,
    };
  }
}
