import { describeHistogram, HistogramCounts, histogramOfRuns, type LatencyHistogram } from './latencyHistogram.js';
import { describeRuns, ExactSum, SampleBuffer, type LatencyStatistics } from './latencySamples.js';
import type { ExecutionSource } from '../records/recordCheck.js';
import type { ReportedShare, ReportedTotals } from './reportedShare.js';

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
  /** Its times as sorted runs (those records brought). */
  readonly runs: readonly Float64Array[];
  readonly browser: BrowserShare | undefined;
  /** What reports brought of it: counted in the whole, split by source in the reports' own counts. */
  readonly reported: ReportedShare | undefined;
}

/** Totals of one source, being added up over the endpoints. */
class SourceTotals {
  executionCount = 0;
  failedExecutionCount = 0;
  noResponseCount = 0;
  slowExecutionCount = 0;
  readonly runs: Float64Array[] = [];

  add(counts: ShareCounts, runs: readonly Float64Array[]): void {
    if (counts.executionCount === 0) return;
    this.executionCount += counts.executionCount;
    this.failedExecutionCount += counts.failedExecutionCount;
    this.noResponseCount += counts.noResponseCount;
    this.slowExecutionCount += counts.slowExecutionCount;
    this.runs.push(...runs.filter((run) => run.length > 0));
  }

  /** The totals, with `reported` (the reports' own totals of this source) added: their statistics then come from the histogram. */
  result(endpointCount: number, reported: ReportedTotals | undefined): SourceStatistics {
    const sum = new ExactSum();
    for (const run of this.runs) sum.addAll(run);
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount } = this;
    const counts = { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount };
    if (reported === undefined)
      return { ...counts, endpointCount, responseTimeMs: describeRuns(this.runs, sum), latencyHistogram: histogramOfRuns(this.runs) };
    const histogram = new HistogramCounts();
    for (const run of this.runs) histogram.addSorted(run);
    histogram.merge(reported.histogram());
    sum.merge(reported.sum);
    let { min, max } = reported;
    for (const run of this.runs) {
      min = Math.min(min, run[0]!);
      max = Math.max(max, run[run.length - 1]!);
    }
    const latencyHistogram = histogram.result();
    return {
      executionCount: counts.executionCount + reported.executionCount,
      failedExecutionCount: counts.failedExecutionCount + reported.failedExecutionCount,
      noResponseCount: counts.noResponseCount + reported.noResponseCount,
      slowExecutionCount: counts.slowExecutionCount + reported.slowExecutionCount,
      endpointCount,
      responseTimeMs: describeHistogram(latencyHistogram, sum, min, max),
      latencyHistogram,
    };
  }
}

/**
 * The run split by source, and each endpoint's counts by source; undefined
 * when no execution came from a browser (the report then says nothing of
 * sources: every execution is an API client's). `reported`: the totals by
 * source of the reports taken (see reportedShare.ts), added to those of the
 * records.
 */
export function splitBySource(
  endpoints: readonly EndpointWhole[],
  reported?: Readonly<Record<ExecutionSource, ReportedTotals>>,
):
  | { readonly sources: Record<ExecutionSource, SourceStatistics>; readonly byEndpoint: readonly Record<ExecutionSource, SourceCounts>[] }
  | undefined {
  if (!endpoints.some((endpoint) => (endpoint.browser?.executionCount ?? 0) > 0 || (endpoint.reported?.browser.executionCount ?? 0) > 0))
    return undefined;
  const api = new SourceTotals();
  const browser = new SourceTotals();
  const byEndpoint = endpoints.map((endpoint) => {
    const { reported: share } = endpoint;
    const split = splitRecorded(share === undefined ? endpoint : { ...endpoint, ...minus(endpoint, share) }, api, browser);
    return share === undefined ? split : { api: plus(split.api, share.api), browser: plus(split.browser, share.browser) };
  });
  const endpointCount = (source: ExecutionSource): number => byEndpoint.filter((counts) => counts[source].executionCount > 0).length;
  const sources = {
    api: api.result(endpointCount('api'), reported?.api),
    browser: browser.result(endpointCount('browser'), reported?.browser),
  };
  return { sources, byEndpoint };
}

// What records brought of one endpoint, split by source into the totals: its counts by source.
function splitRecorded(whole: EndpointWhole, api: SourceTotals, browser: SourceTotals): Record<ExecutionSource, SourceCounts> {
  const share = whole.browser;
  if (share === undefined || share.executionCount === 0) {
    api.add(whole, whole.runs);
    return { api: countsOf(whole), browser: { executionCount: 0, failedExecutionCount: 0 } };
  }
  const browserRuns = share.times.runs();
  const rest = minus(whole, share);
  api.add(rest, [without(joinSorted(whole.runs), joinSorted(browserRuns))]);
  browser.add(share, browserRuns);
  return { api: countsOf(rest), browser: countsOf(share) };
}

function minus(whole: ShareCounts, part: ShareCounts): ShareCounts {
  return {
    executionCount: whole.executionCount - part.executionCount,
    failedExecutionCount: whole.failedExecutionCount - part.failedExecutionCount,
    noResponseCount: whole.noResponseCount - part.noResponseCount,
    slowExecutionCount: whole.slowExecutionCount - part.slowExecutionCount,
  };
}

function plus(a: SourceCounts, b: SourceCounts): SourceCounts {
  return { executionCount: a.executionCount + b.executionCount, failedExecutionCount: a.failedExecutionCount + b.failedExecutionCount };
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
