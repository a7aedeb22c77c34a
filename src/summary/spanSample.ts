import { compareCodeUnits } from '../compareCodeUnits.js';

/**
 * The traced calls a run keeps for the otlp export's spans (issue 37): a
 * bounded, deterministic, mergeable selection. Up to `limit` calls are kept;
 * beyond it the failed calls come first, then the slow ones, then the rest,
 * and within each class the smallest span ids. Span ids are random, so the
 * rest is a uniform sample, and the selection depends only on the set of
 * calls offered: the same whatever the order of records, files, threads or
 * shards (`sample(a ++ b) = merge(sample(a), sample(b))`). A call recorded
 * twice under the same trace and span id is sent once (the first of its
 * entries in the order above), but takes a place for each record.
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

/** A kept call and its place in the selection's order: class, span id, trace id (all fixed-length), compared as one string. */
interface Ranked {
  readonly key: string;
  readonly call: SampledCall;
}

function rankOf(call: SampledCall): Ranked {
  return { key: `${classOf(call.failed, call.slow)}${call.spanId}${call.traceId}`, call };
}

/** The selection's total order: class, span id, trace id, then (for the same ids recorded twice) the entry itself. */
function compareRanked(a: Ranked, b: Ranked): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : compareCodeUnits(JSON.stringify(a.call), JSON.stringify(b.call));
}

/**
 * See the module's comment. A heap of the `limit` best calls offered so far
 * by the order above, the worst at its root: a call no better than the root
 * is refused at the cost of one comparison, and no object is made for it
 * (see {@link admits}). O(log limit) per call kept.
 */
export class SpanSample {
  private readonly heap: Ranked[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError(`a span sample keeps one call or more; got ${limit}`);
  }

  /** Whether a call of this class and span id may be kept: the caller builds its entry only then. */
  admits(failed: boolean, slow: boolean, spanId: string): boolean {
    if (this.heap.length < this.limit) return true;
    const worst = this.heap[0]!.call;
    return (classOf(failed, slow) - classOf(worst.failed, worst.slow) || compareCodeUnits(spanId, worst.spanId)) <= 0;
  }

  add(call: SampledCall): void {
    const { heap } = this;
    const ranked = rankOf(call);
    if (heap.length < this.limit) {
      heap.push(ranked);
      this.siftUp(heap.length - 1);
    } else if (compareRanked(ranked, heap[0]!) < 0) {
      heap[0] = ranked;
      this.siftDown(0);
    }
  }

  /** Adds another sample's calls (of another file, range, thread or shard). */
  merge(other: SpanSampleData | SpanSample): void {
    const calls = other instanceof SpanSample ? other.heap.map(({ call }) => call) : other.calls;
    for (const call of calls) this.add(call);
  }

  /** The calls under the labels learning renamed them to (see ExecutionAccumulator.relabel). */
  relabel(renamed: ReadonlyMap<string, string>): void {
    if (renamed.size === 0) return;
    const calls = this.heap.splice(0).map(({ call }) => {
      const endpoint = renamed.get(call.endpoint);
      return endpoint === undefined ? call : { ...call, endpoint };
    });
    // The order of calls recorded twice may follow their labels: the heap is made anew.
    for (const call of calls) this.add(call);
  }

  /** The calls as data: every call kept, those recorded twice too, so that merging parts keeps what the whole would. */
  toData(): SpanSampleData {
    return { limit: this.limit, calls: this.heap.map(({ call }) => call) };
  }

  /** The kept calls, in the selection's order (failed, slow, rest; by span id), each trace and span id once. */
  result(): readonly SampledCall[] {
    const seen = new Set<string>();
    return [...this.heap]
      .sort(compareRanked)
      .map(({ call }) => call)
      .filter(({ traceId, spanId }) => {
        const key = `${traceId}-${spanId}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }

  private siftUp(at: number): void {
    const { heap } = this;
    const ranked = heap[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (compareRanked(heap[parent]!, ranked) >= 0) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = ranked;
  }

  private siftDown(at: number): void {
    const { heap } = this;
    const ranked = heap[at]!;
    const half = heap.length >> 1;
    while (at < half) {
      let child = 2 * at + 1;
      if (child + 1 < heap.length && compareRanked(heap[child + 1]!, heap[child]!) > 0) child++;
      if (compareRanked(heap[child]!, ranked) <= 0) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = ranked;
  }
}
