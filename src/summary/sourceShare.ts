import { histogramOfRuns, type LatencyHistogram } from './latencyHistogram.js';
import { describeRuns, ExactSum, SampleBuffer, type LatencyStatistics } from './latencySamples.js';
import type { ExecutionSource } from '../records/recordCheck.js';

export type { ExecutionSource } from '../records/recordCheck.js';

/** The counts of one source's executions of one endpoint. */
export interface SourceCounts {
  readonly executionCount: number;
  readonly failedExecutionCount: number;
}

/** What a share of executions is counted by: its executions, and those that failed, got no response, were slow. */
export interface ShareCounts extends SourceCounts {
  readonly noResponseCount: number;
  readonly slowExecutionCount: number;
}

/** One source's executions over the whole run. */
export interface SourceStatistics extends ShareCounts {
  /** How many endpoints this source called. */
  readonly endpointCount: number;
  readonly responseTimeMs: LatencyStatistics;
  /** Its times in the report's logarithmic buckets, so that merged reports keep the split. */
  readonly latencyHistogram: LatencyHistogram;
}

/**
 * The browser's share of one endpoint's executions, kept beside the
 * endpoint's whole tally: its counts and its own times. The API clients'
 * share is the rest (counts by subtraction, times by taking the browser's
 * out of the sorted whole), so an input without browser records keeps no
 * second copy of anything.
 */
export class BrowserShare {
  executionCount = 0;
  failedExecutionCount = 0;
  noResponseCount = 0;
  slowExecutionCount = 0;
  readonly times = new SampleBuffer(4);

  add(failed: boolean, noResponse: boolean, slow: boolean, responseTimeMs: number): void {
    this.executionCount++;
    if (failed) this.failedExecutionCount++;
    if (noResponse) this.noResponseCount++;
    if (slow) this.slowExecutionCount++;
    this.times.push(responseTimeMs);
  }

  merge(data: BrowserShareData): void {
    this.executionCount += data.executionCount;
    this.failedExecutionCount += data.failedExecutionCount;
    this.noResponseCount += data.noResponseCount;
    this.slowExecutionCount += data.slowExecutionCount;
    for (const samples of data.times) this.times.adopt(samples);
  }

  toData(): BrowserShareData {
    const samples = this.times.view();
    return {
      executionCount: this.executionCount,
      failedExecutionCount: this.failedExecutionCount,
      noResponseCount: this.noResponseCount,
      slowExecutionCount: this.slowExecutionCount,
      times: samples.length === 0 ? [] : [samples],
    };
  }
}

/** A browser share as plain data, to cross a thread boundary. */
export interface BrowserShareData extends ShareCounts {
  readonly times: readonly Float64Array[];
}

/** What the split needs of one endpoint's whole tally. */
export interface EndpointWhole extends ShareCounts {
  /** Its times as sorted runs. */
  readonly runs: readonly Float64Array[];
  readonly browser: BrowserShare | undefined;
}

/** Totals of one source, being added up over the endpoints. */
class SourceTotals {
  executionCount = 0;
  failedExecutionCount = 0;
  noResponseCount = 0;
  slowExecutionCount = 0;
  endpointCount = 0;
  readonly runs: Float64Array[] = [];

  add(counts: ShareCounts, runs: readonly Float64Array[]): void {
    if (counts.executionCount === 0) return;
    this.endpointCount++;
    this.executionCount += counts.executionCount;
    this.failedExecutionCount += counts.failedExecutionCount;
    this.noResponseCount += counts.noResponseCount;
    this.slowExecutionCount += counts.slowExecutionCount;
    this.runs.push(...runs.filter((run) => run.length > 0));
  }

  result(): SourceStatistics {
    const sum = new ExactSum();
    for (const run of this.runs) sum.addAll(run);
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, endpointCount } = this;
    return { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, endpointCount, responseTimeMs: describeRuns(this.runs, sum), latencyHistogram: histogramOfRuns(this.runs) };
  }
}

/**
 * The run split by source, and each endpoint's counts by source; undefined
 * when no execution came from a browser (the report then says nothing of
 * sources: every execution is an API client's).
 */
export function splitBySource(endpoints: readonly EndpointWhole[]): { readonly sources: Record<ExecutionSource, SourceStatistics>; readonly byEndpoint: readonly Record<ExecutionSource, SourceCounts>[] } | undefined {
  if (!endpoints.some((endpoint) => endpoint.browser !== undefined && endpoint.browser.executionCount > 0)) return undefined;
  const api = new SourceTotals();
  const browser = new SourceTotals();
  const byEndpoint = endpoints.map((whole) => {
    const share = whole.browser;
    if (share === undefined || share.executionCount === 0) {
      api.add(whole, whole.runs);
      return { api: countsOf(whole), browser: { executionCount: 0, failedExecutionCount: 0 } };
    }
    const browserRuns = share.times.runs();
    const rest = {
      executionCount: whole.executionCount - share.executionCount,
      failedExecutionCount: whole.failedExecutionCount - share.failedExecutionCount,
      noResponseCount: whole.noResponseCount - share.noResponseCount,
      slowExecutionCount: whole.slowExecutionCount - share.slowExecutionCount,
    };
    api.add(rest, [without(joinSorted(whole.runs), joinSorted(browserRuns))]);
    browser.add(share, browserRuns);
    return { api: countsOf(rest), browser: countsOf(share) };
  });
  return { sources: { api: api.result(), browser: browser.result() }, byEndpoint };
}

function countsOf({ executionCount, failedExecutionCount }: SourceCounts): SourceCounts {
  return { executionCount, failedExecutionCount };
}

/** Sorted runs as one sorted array. */
function joinSorted(runs: readonly Float64Array[]): Float64Array {
  if (runs.length === 1) return runs[0]!;
  const joined = new Float64Array(runs.reduce((total, run) => total + run.length, 0));
  let at = 0;
  for (const run of runs) {
    joined.set(run, at);
    at += run.length;
  }
  return joined.sort();
}

/** The sorted multiset `all` without the sorted multiset `taken` (every value of `taken` is in `all`). */
function without(all: Float64Array, taken: Float64Array): Float64Array {
  const rest = new Float64Array(all.length - taken.length);
  let at = 0;
  let next = 0;
  for (let index = 0; index < all.length; index++) {
    if (next < taken.length && all[index] === taken[next]) next++;
    else rest[at++] = all[index]!;
  }
  return rest.subarray(0, at);
}
