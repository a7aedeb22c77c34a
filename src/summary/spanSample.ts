import { compareCodeUnits } from './compareCodeUnits.js';

/**
 * The traced calls a run keeps for the otlp export's spans (issue 37): a
 * bounded, deterministic, mergeable selection. Up to `limit` calls are kept;
 * beyond it the failed calls come first, then the slow ones, then the rest,
 * and within each class the smallest span ids. Span ids are random, so the
 * rest is a uniform sample, and the selection depends only on the set of
 * calls offered: the same whatever the order of records, files, threads or
 * shards (`sample(a ++ b) = merge(sample(a), sample(b))`). A call offered
 * twice under the same trace and span id is one span: the first of its
 * entries in the order above is kept.
 *
 * The report never holds it (a report is the same bytes with or without an
 * export); it reaches the export beside the report (see EvidenceRun.spans).
 */

/** One kept call: what its client span and its test's span are made of. */
export interface SampledCall {
  /** The W3C ids: the call's trace, its client span, and the span of the test it was made in. */
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  /** When the call started, in milliseconds since the epoch. */
  readonly startedAtMs: number;
  readonly responseTimeMs: number;
  /** The endpoint's label (`GET /orders/:id`), renamed with the report's when templates are learned. */
  readonly endpoint: string;
  /** The status code; absent when the call got no response. */
  readonly statusCode?: number;
  /** Only for a call that got no response: its error code. */
  readonly errorCode?: string;
  /** Failed by the run's rules (its status not expected, or no response). */
  readonly failed: boolean;
  /** Slower than the run's threshold. */
  readonly slow: boolean;
  /** The Playwright test that made it, for the reporter's records: its title path, file and line. */
  readonly test?: { readonly title: string; readonly file: string; readonly line: number };
  /** The test's attempt, 1-based. */
  readonly attempt?: number;
  /** Whether that attempt ended as its test expects. */
  readonly testPassed?: boolean;
  /** The host and port the call went to, where its URL was absolute. */
  readonly server?: { readonly address: string; readonly port: number };
}

/** A sample as plain data, to cross a worker-thread boundary (structured clone). */
export interface SpanSampleData {
  readonly limit: number;
  readonly calls: readonly SampledCall[];
}

/** The class of a call in the selection: failed first, then slow, then the rest. */
function classOf(failed: boolean, slow: boolean): number {
  return failed ? 0 : slow ? 1 : 2;
}

/** The selection's total order: class, span id, trace id, then (for the same ids offered twice) the entry itself. */
function compareSampled(a: SampledCall, b: SampledCall): number {
  return (
    classOf(a.failed, a.slow) - classOf(b.failed, b.slow) ||
    compareCodeUnits(a.spanId, b.spanId) ||
    compareCodeUnits(a.traceId, b.traceId) ||
    compareCodeUnits(JSON.stringify(a), JSON.stringify(b))
  );
}

/** See the module's comment. Keeps at most twice `limit` entries between normalisations (amortised O(log limit) per call). */
export class SpanSample {
  private calls: SampledCall[] = [];
  /** Once `limit` calls are kept: the last of them; a call after it in the order is never kept. */
  private bound: SampledCall | undefined;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError(`a span sample keeps one call or more; got ${limit}`);
  }

  /** Whether a call of this class and span id may be kept: the caller builds its entry only then. */
  admits(failed: boolean, slow: boolean, spanId: string): boolean {
    const { bound } = this;
    if (bound === undefined) return true;
    return (classOf(failed, slow) - classOf(bound.failed, bound.slow) || compareCodeUnits(spanId, bound.spanId)) <= 0;
  }

  add(call: SampledCall): void {
    this.calls.push(call);
    if (this.calls.length >= 2 * this.limit) this.normalise();
  }

  /** Adds another sample's calls (of another file, range, thread or shard). */
  merge(other: SpanSampleData | SpanSample): void {
    const calls = other instanceof SpanSample ? other.calls : other.calls;
    for (const call of calls) this.add(call);
  }

  /** The calls under the labels learning renamed them to (see ExecutionAccumulator.relabel). */
  relabel(renamed: ReadonlyMap<string, string>): void {
    if (renamed.size === 0) return;
    this.calls = this.calls.map((call) => {
      const endpoint = renamed.get(call.endpoint);
      return endpoint === undefined ? call : { ...call, endpoint };
    });
    this.bound = undefined;
  }

  toData(): SpanSampleData {
    return { limit: this.limit, calls: this.result() };
  }

  /** The kept calls, in the selection's order (failed, slow, rest; by span id). */
  result(): readonly SampledCall[] {
    this.normalise();
    return [...this.calls];
  }

  private normalise(): void {
    const seen = new Set<string>();
    const kept: SampledCall[] = [];
    for (const call of this.calls.sort(compareSampled)) {
      const key = `${call.traceId}${call.spanId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(call);
      if (kept.length === this.limit) break;
    }
    this.calls = kept;
    this.bound = kept.length === this.limit ? kept[kept.length - 1] : undefined;
  }
}
