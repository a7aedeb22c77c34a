import type { RecordLocation } from '../issues/location.js';
import type { CanonicalExecutionRecord } from '../records/normaliseExecutionRecords.js';
import { DEFAULT_EXPECTED_STATUSES, statusSet, type StatusSet } from '../records/statusList.js';
import { describeType } from '../renderValue.js';
import {
  concatenated,
  describeRuns,
  ExactSum,
  roundToMicroseconds,
  SampleBuffer,
  sortedAndSummed,
  type FlatHistogram,
  type LatencyStatistics,
  type RankGuide,
} from './latencySamples.js';
import type { SummarisedTimes } from './latencySamples.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import { sparseCounts } from './sparseCounts.js';
import type { RecordSummary } from './executionSummary.js';
import { BodyTally, type BodyConformance, type BodyTallyData } from './bodyTally.js';
import type { BodyCheck } from '../records/bodyCheck.js';
import type { ConditionsRecord } from '../records/conditionsRecord.js';
import { ConditionTally, type ConditionsMetEntry } from './conditionTally.js';
import {
  describeHistogram,
  flatHistogramOfRuns,
  flatRankGuide,
  HistogramCounts,
  histogramOfFlat,
  histogramOfRuns,
  mergedHistogram,
  mergedStatusHistograms,
  lazyRankGuide,
  rankGuide,
  sumOfFlatHistograms,
  type LatencyHistogram,
} from './latencyHistogram.js';
import { ReportedShare, ReportedTotals, type ReportedShareData, type ReportedTotalsData } from './reportedShare.js';
import { SpanSample, type SpanSampleData } from './spanSample.js';
import type { TestEndpoint } from './failedTests.js';
import {
  EndpointEvidence,
  type CallSource,
  type EndpointEvidenceData,
  type EndpointEvidenceResult,
  type FailedExecution,
} from './endpointEvidence.js';
import {
  BrowserShare,
  splitBySource,
  type BrowserShareData,
  type EndpointWhole,
  type ExecutionSource,
  type SourceCounts,
  type SourceStatistics,
} from './sourceShare.js';
import type { Mutable } from '../deepReadonly.js';

/** How many of the slowest executions the summary keeps. */
const SLOWEST_EXECUTION_COUNT = 5;

/** One of the slowest executions, with what leads a reader to its record. */
export interface SlowExecution {
  readonly endpoint: string;
  /** The status code; absent when the call got no response. */
  readonly statusCode?: number;
  /** Only for a call that got no response: its error code. */
  readonly errorCode?: string;
  readonly responseTimeMs: number;
  /** The record's `id`, when it has one. */
  readonly id?: string;
  /** The W3C trace id it was sent under, when its record has one. */
  readonly traceId?: string;
  /** Its W3C span id, when its record has one. */
  readonly spanId?: string;
  /** Where the record is: its file and position, or the test and attempt that recorded it. */
  readonly location?: RecordLocation;
  /** Only for a call a web application made in a browser test: `browser`. */
  readonly source?: 'browser';
}

/** The statistics of one endpoint, and the evidence that leads to its calls. */
export interface EndpointStatistics extends EndpointEvidenceResult {
  readonly endpoint: string;
  readonly executionCount: number;
  /** Executions whose status the rules did not expect, or that got no response. */
  readonly failedExecutionCount: number;
  /** Executions with a status of 400 or above that the rules expected (negative tests): not failures. */
  readonly expectedErrorCount: number;
  /** Failed executions answered with a status of 500 or above, or with no response: the server's defects, apart from client errors. */
  readonly serverErrorCount: number;
  readonly slowExecutionCount: number;
  readonly noResponseCount: number;
  /** Executions per status code, keys ascending; calls with no response have no status and are not here. */
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly responseTimeMs: LatencyStatistics;
  /** Every response time in logarithmic buckets (see latencyHistogram.ts): for comparisons and merging. */
  readonly latencyHistogram: LatencyHistogram;
  /** The response times by status code, then by error code for calls with no response: what the OpenTelemetry and Prometheus exports are made of. */
  readonly latencyByStatus: readonly StatusLatency[];
  /** Only when records of this endpoint carried timing phases: the statistics of `wait` (request sent to first byte). */
  readonly timeToFirstByteMs?: LatencyStatistics;
  /** Only when records of this endpoint carried timing phases: executions that paid a connect phase (a new connection). */
  readonly newConnectionCount?: number;
  /** Only when records of this endpoint carried body checks (a contract was given): their bodies' conformance. */
  readonly bodies?: BodyConformance;
  /** Only when records of this endpoint carried the conditions they met (a contract was given): which, per list of conditions. */
  readonly conditionsMet?: readonly ConditionsMetEntry[];
  /** Only when the run has browser-made executions: this endpoint's executions and failures by source. */
  readonly sources?: Readonly<Record<ExecutionSource, SourceCounts>>;
}

/** One status's (or, for calls with no response, one error code's) executions of an endpoint, and their times. */
export interface StatusLatency {
  /** A status code; for calls with no response, their error code. */
  readonly outcome: number | string;
  readonly executionCount: number;
  /** The exact sum of their response times, rounded to the microsecond. */
  readonly totalMs: number;
  readonly latencyHistogram: LatencyHistogram;
}

/** The summary of execution records: the counts, and where and how badly. */
export interface ExecutionStatistics extends RecordSummary {
  readonly expectedErrorCount: number;
  /** Failed executions answered with a status of 500 or above, or with no response. */
  readonly serverErrorCount: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly responseTimeMs: LatencyStatistics;
  /** One entry per endpoint, by label in code-unit order. */
  readonly endpoints: readonly EndpointStatistics[];
  /** The slowest executions, slowest first, ties in input order. */
  readonly slowestExecutions: readonly SlowExecution[];
  /** Only when the run has browser-made executions: the run split by source (see sourceShare.ts). */
  readonly sources?: Readonly<Record<ExecutionSource, SourceStatistics>>;
}

/**
 * The accumulator's state as plain data, to cross a worker-thread boundary:
 * flat arrays (one of labels, one of counts, one of samples), not an object
 * per endpoint, so that tens of thousands of endpoints cost a few transfers,
 * not tens of thousands of objects to copy, then search and collect.
 */
export interface ExecutionData {
  /** The endpoints' labels; the arrays below list the endpoints in this order. */
  readonly labels: readonly string[];
  /** {@link ENDPOINT_FIELDS} numbers per endpoint: see the `FIELD_` offsets. */
  readonly counts: Float64Array;
  /** Each endpoint's outcomes in turn (status codes, or error codes for calls with no response); `counts` says how many an endpoint has. */
  readonly outcomes: readonly (number | string)[];
  /** How many samples each outcome has in `samples`, then, after an endpoint's outcomes, how many waits (time to first byte). */
  readonly sampleCounts: Float64Array;
  /** How many arrays of `samples` hold them, for each entry of `sampleCounts`. */
  readonly runCounts: Uint32Array;
  /**
   * Every outcome's response times, then the endpoint's waits, endpoint by
   * endpoint, as the arrays the thread kept them in (chunks of 1,024): moved
   * to the thread that merges them, not copied into one array (see
   * SampleBuffer.arrays).
   */
  readonly samples: readonly Float64Array[];
  /** Whether each outcome's samples (and the waits) are in ascending order. */
  readonly sorted: boolean;
  /**
   * When the thread that sent them sorted them: the exact sums of the
   * samples, as partials, `sumCounts` of them for each entry of
   * `sampleCounts`; and their histograms, a zero count and `binCounts`
   * `[bucket, count]` pairs (flat, in `bins`) for each entry.
   */
  readonly sums?: {
    readonly partials: Float64Array;
    readonly sumCounts: Uint8Array;
    readonly zeroCounts: Float64Array;
    readonly binCounts: Uint32Array;
    readonly bins: Float64Array;
  };
  /** What only some endpoints have: body conformance, tests and failed calls, calls a browser made, what reports said. */
  readonly details: readonly EndpointDetails[];
  readonly slowest: readonly SlowExecution[];
  /** Only when reports were taken: their totals by source (see reportedShare.ts). */
  readonly reportedSources?: Readonly<Record<ExecutionSource, ReportedTotalsData>>;
  /** Only when the run keeps traced calls for the otlp export's spans (see spanSample.ts). */
  readonly spans?: SpanSampleData;
}

/** The parts of one endpoint's tally that only some endpoints have, as plain data. */
export interface EndpointDetails {
  /** The endpoint's place in {@link ExecutionData.labels}. */
  readonly index: number;
  readonly bodies?: BodyTallyData;
  readonly conditions?: readonly ConditionsMetEntry[];
  readonly evidence?: EndpointEvidenceData;
  readonly browser?: BrowserShareData;
  /** What reports said of the endpoint: their bounds and counts by source, and their times by outcome, summarised. */
  readonly reported?: { readonly share: ReportedShareData; readonly outcomes: readonly SummarisedOutcome[] };
}

/** One outcome's times as a report gives them: their count, exact sum and histogram. */
export interface SummarisedOutcome {
  readonly outcome: number | string;
  readonly times: SummarisedTimes;
}

/** What a report says of one endpoint (see ExecutionAccumulator.addReported). */
export interface ReportedEndpoint {
  readonly executionCount: number;
  readonly failedExecutionCount: number;
  readonly expectedErrorCount: number;
  readonly serverErrorCount: number;
  readonly slowExecutionCount: number;
  readonly noResponseCount: number;
  /** Only when its records carried timing phases. */
  readonly newConnectionCount?: number | undefined;
  /** Its times by status code, or error code for calls with no response. */
  readonly outcomes: readonly SummarisedOutcome[];
  /** The fastest and the slowest of its times. */
  readonly min: number;
  readonly max: number;
  /** Its executions by source; absent: every one an API client's. */
  readonly sources?: Readonly<Record<ExecutionSource, SourceCounts>> | undefined;
  readonly bodies?: BodyTallyData | undefined;
  readonly conditions?: readonly ConditionsMetEntry[] | undefined;
  readonly evidence?: EndpointEvidenceData | undefined;
}

const FIELD_EXECUTIONS = 0;
const FIELD_FAILED = 1;
const FIELD_EXPECTED_ERRORS = 2;
const FIELD_SLOW = 3;
const FIELD_NO_RESPONSE = 4;
const FIELD_NEW_CONNECTIONS = 5;
const FIELD_FLAGS = 6;
const FIELD_OUTCOMES = 7;
const FIELD_SERVER_ERRORS = 8;
const ENDPOINT_FIELDS = 9;
const FLAG_TIMED = 1;
const FLAG_LEARNABLE = 2;

/** What decides failure: the statuses expected when a record says nothing of its own. */
export interface ExpectationRules {
  /** The run-wide expected statuses; default `100-399`. */
  readonly expectedStatuses?: StatusSet | undefined;
  /** Per endpoint label (after templating): overrides the run-wide rule. */
  readonly expectedStatusesByEndpoint?: ReadonlyMap<string, StatusSet> | undefined;
  /** Looks up the statuses of a label that `expectedStatusesByEndpoint` does not name (by a template that matches it); undefined for none. */
  readonly expectedStatusesOf?: ((endpoint: string) => StatusSet | undefined) | undefined;
}

const DEFAULT_STATUSES = statusSet(DEFAULT_EXPECTED_STATUSES);

const NO_OUTCOMES = Object.freeze([]) as unknown as (number | string)[];
const NO_OUTCOME_TIMES = Object.freeze([]) as unknown as SampleBuffer[];

/**
 * One endpoint's counts and samples: what the accumulator keeps per label.
 * Callers that count the same label millions of times hold on to it (see
 * {@link ExecutionAccumulator.slot}) and skip the label lookup.
 */
export class EndpointTally {
  executionCount = 0;
  failedExecutionCount = 0;
  expectedErrorCount = 0;
  serverErrorCount = 0;
  slowExecutionCount = 0;
  noResponseCount = 0;
  // The response times by status code, or by error code for calls with no response, side by side: an endpoint
  // answers with a handful, so a scan beats a map. A status code's count is its buffer's length. Shared empty lists
  // (frozen) until the first outcome, then lists made one longer for each: an endpoint holds no spare room.
  outcomes: (number | string)[] = NO_OUTCOMES;
  outcomeTimes: SampleBuffer[] = NO_OUTCOME_TIMES;
  timed = false;
  readonly waits = new SampleBuffer(0);
  newConnectionCount = 0;
  /** Automatic grouping made the label: at the end of the run, learning may make it a template (learnedTemplates.ts). */
  learnable = false;
  /** The bodies' conformance, once a record of the endpoint carried a body check. */
  bodies: BodyTally | undefined;
  /** The conditions its calls met, once a record of the endpoint carried them. */
  conditions: ConditionTally | undefined;
  /** Its tests and failed calls, once a call came from a test or failed. */
  evidence: EndpointEvidence | undefined;
  /** The executions a browser made, once one did. */
  browser: BrowserShare | undefined;
  /** What reports said of it, once one was taken (see {@link ExecutionAccumulator.addReported}): its statistics then come from the histograms. */
  reported: ReportedShare | undefined;

  constructor(
    readonly endpoint: string,
    readonly expected: Uint8Array,
  ) {}

  /** Executions per status code, in the order the codes came. */
  statusCodes(): [number, number][] {
    const counts: [number, number][] = [];
    this.outcomes.forEach((outcome, index) => {
      if (typeof outcome === 'number') counts.push([outcome, this.outcomeTimes[index]!.length]);
    });
    return counts;
  }

  /** The buffer of one status code's (or error code's) times, made on first use. */
  timesOf(outcome: number | string): SampleBuffer {
    const { outcomes } = this;
    for (let index = 0; index < outcomes.length; index++) if (outcomes[index] === outcome) return this.outcomeTimes[index]!;
    const buffer = new SampleBuffer();
    // Made one longer each time by concat, which makes a list as long as it holds: pushed to (or spread into a literal),
    // a list grows room for 17 (an endpoint of two statuses held two such, 12 MB at 50,000 endpoints).
    this.outcomes = outcomes.concat([outcome]);
    this.outcomeTimes = this.outcomeTimes.concat([buffer]);
    return buffer;
  }

  /** Lets go of every sample, the counts kept: once its statistics are taken for the last time (see ExecutionAccumulator.result). */
  letGoOfSamples(): void {
    for (const buffer of this.outcomeTimes) buffer.clear();
    this.waits.clear();
  }

  /** Every response time as sorted runs (see SampleBuffer.runs), by status code or error code in the order they came. */
  runs(): Float64Array[] {
    return this.outcomeTimes.flatMap((buffer) => buffer.runs());
  }
}

/**
 * The summary of execution records as a mergeable accumulator: `add` one
 * record at a time, `merge` another accumulator's data (of another file,
 * shard or worker thread, whose records come after this one's), `result`
 * the statistics. Counts add up; response times are kept as float64 samples
 * per endpoint, so percentiles are exact and the law
 * `summarise(a ++ b) = merge(summarise(a), summarise(b))` holds exactly.
 *
 * Rules: a record failed when it got no response, or its status is not an
 * expected one (by default, 400 and above); slow means strictly above the
 * threshold (equal is not slow), whether the time ran until a response or
 * until the call failed.
 */
export class ExecutionAccumulator {
  readonly slowResponseThresholdMs: number;
  private readonly runWide: StatusSet;
  private readonly expected: Uint8Array;
  private readonly expectedByEndpoint: ReadonlyMap<string, StatusSet> | undefined;
  private readonly expectedOfTemplate: ((endpoint: string) => StatusSet | undefined) | undefined;
  private readonly tallies = new Map<string, EndpointTally>();
  // Whether result() let go of the samples (see its letGoOfSamples).
  private samplesLetGo = false;
  private slowest: SlowExecution[] = [];
  private reportedSources: Record<ExecutionSource, ReportedTotals> | undefined;
  /** The traced calls kept for the otlp export's spans, when the run keeps them (see {@link sampleSpans}). */
  spans: SpanSample | undefined;

  constructor(slowResponseThresholdMs: number, rules: ExpectationRules = {}) {
    if (typeof slowResponseThresholdMs !== 'number') {
      throw new TypeError(`the slow-response threshold must be a number of milliseconds; got ${describeType(slowResponseThresholdMs)}`);
    }
    if (!Number.isFinite(slowResponseThresholdMs) || slowResponseThresholdMs < 0) {
      throw new RangeError(
        `the slow-response threshold must be a finite number of milliseconds, zero or more; got ${slowResponseThresholdMs}`,
      );
    }
    this.slowResponseThresholdMs = slowResponseThresholdMs;
    this.runWide = rules.expectedStatuses ?? DEFAULT_STATUSES;
    this.expected = this.runWide.table;
    this.expectedByEndpoint = rules.expectedStatusesByEndpoint?.size === 0 ? undefined : rules.expectedStatusesByEndpoint;
    this.expectedOfTemplate = rules.expectedStatusesOf;
  }

  /**
   * Counts one execution by its fields, making no object: the hot loop of a
   * million-record input. `outcome` is its status code, or, for a call that
   * got no response, its error code. `expected` overrides the rules for this
   * record (a record's own `expectedStatuses`, or its test's annotation).
   * Returns whether the execution failed.
   */
  addExecution(
    endpoint: string,
    outcome: number | string,
    responseTimeMs: number,
    expected?: StatusSet,
    wait?: number,
    connect?: number,
  ): boolean {
    return this.addToSlot(this.slot(endpoint), outcome, responseTimeMs, expected, wait, connect);
  }

  /** {@link addExecution} for a label whose slot the caller holds. */
  addToSlot(
    tally: EndpointTally,
    outcome: number | string,
    responseTimeMs: number,
    expected?: StatusSet,
    wait?: number,
    connect?: number,
  ): boolean {
    tally.executionCount++;
    let failed = true;
    const statusCode = typeof outcome === 'number' ? outcome : undefined;
    if (statusCode === undefined) {
      tally.noResponseCount++;
      tally.failedExecutionCount++;
      tally.serverErrorCount++;
    } else {
      if ((expected?.table ?? tally.expected)[statusCode] !== 1) {
        tally.failedExecutionCount++;
        // A 5xx the rules expect (a test of a maintenance page) is no defect: only a failed one is a server error.
        if (statusCode >= 500) tally.serverErrorCount++;
      } else {
        failed = false;
        if (statusCode >= 400) tally.expectedErrorCount++;
      }
    }
    if (responseTimeMs > this.slowResponseThresholdMs) tally.slowExecutionCount++;
    // + 0 makes -0 a 0: a percentile is then the same whichever zero was read first (found by the merge-law property).
    tally.timesOf(outcome).push(responseTimeMs + 0);
    if (wait !== undefined || connect !== undefined) {
      tally.timed = true;
      if (wait !== undefined) tally.waits.push(wait + 0);
      if (connect !== undefined && connect > 0) tally.newConnectionCount++;
    }
    return failed;
  }

  /** Counts the body check of an execution counted in `tally`. */
  addBodyCheck(tally: EndpointTally, check: BodyCheck): void {
    (tally.bodies ??= new BodyTally()).add(check);
  }

  /** Counts the conditions met by an execution counted in `tally`. */
  addConditions(tally: EndpointTally, conditions: ConditionsRecord): void {
    (tally.conditions ??= new ConditionTally()).add(conditions);
  }

  /** Counts an execution counted in `tally` as one a browser made too (its `source` is `browser`). */
  addBrowserExecution(tally: EndpointTally, failed: boolean, noResponse: boolean, responseTimeMs: number): void {
    (tally.browser ??= new BrowserShare()).add(failed, noResponse, responseTimeMs > this.slowResponseThresholdMs, responseTimeMs + 0);
  }

  /** Keeps what leads to an execution counted in `tally`: its test, and the call itself when it failed (see endpointEvidence.ts). */
  addEvidence(
    tally: EndpointTally,
    failed: boolean,
    serverError: boolean,
    source: CallSource | undefined,
    execution: () => FailedExecution,
    excerpt?: () => string | undefined,
  ): void {
    (tally.evidence ??= new EndpointEvidence()).add(failed, serverError, source, execution, excerpt);
  }

  /**
   * Counts what a report says of one endpoint, as a part counted elsewhere:
   * its counts, its times by outcome as the report summarised them, their
   * bounds, its split by source, its body conformance and its evidence.
   * An endpoint a report was taken into gives statistics read from its
   * histograms (`source: histogram`), and no time to first byte (a report
   * keeps none of the waits).
   */
  addReported(endpoint: string, reported: ReportedEndpoint): void {
    const tally = this.slot(endpoint);
    tally.executionCount += reported.executionCount;
    tally.failedExecutionCount += reported.failedExecutionCount;
    tally.expectedErrorCount += reported.expectedErrorCount;
    tally.serverErrorCount += reported.serverErrorCount;
    tally.slowExecutionCount += reported.slowExecutionCount;
    tally.noResponseCount += reported.noResponseCount;
    if (reported.newConnectionCount !== undefined) {
      tally.timed = true;
      tally.newConnectionCount += reported.newConnectionCount;
    }
    for (const { outcome, times } of reported.outcomes) tally.timesOf(outcome).adoptSummarised(times);
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, min, max, sources } = reported;
    const api = sources?.api ?? { executionCount, failedExecutionCount };
    const browser = sources?.browser ?? { executionCount: 0, failedExecutionCount: 0 };
    (tally.reported ??= new ReportedShare()).merge({
      executionCount,
      failedExecutionCount,
      noResponseCount,
      slowExecutionCount,
      min,
      max,
      api,
      browser,
    });
    if (reported.bodies !== undefined) (tally.bodies ??= new BodyTally()).merge(reported.bodies);
    if (reported.conditions !== undefined) (tally.conditions ??= new ConditionTally()).merge(reported.conditions);
    if (reported.evidence !== undefined) (tally.evidence ??= new EndpointEvidence()).merge(reported.evidence);
  }

  /** Adds a report's totals by source (see reportedShare.ts); every report taken gives them, a report without sources all as API clients'. */
  addReportedSources(sources: Readonly<Record<ExecutionSource, ReportedTotalsData>>): void {
    const totals = (this.reportedSources ??= { api: new ReportedTotals(), browser: new ReportedTotals() });
    totals.api.merge(sources.api);
    totals.browser.merge(sources.browser);
  }

  /** Counts one canonical record. */
  add(record: CanonicalExecutionRecord, expected?: StatusSet): void {
    this.addExecution(
      record.endpoint,
      record.statusCode ?? record.errorCode ?? NO_RESPONSE,
      record.responseTimeMs,
      expected,
      record.timingMs?.wait,
      record.timingMs?.connect,
    );
    if (this.isAmongSlowest(record.responseTimeMs)) this.addSlowest(slowExecutionOf(record));
  }

  /** Keeps up to `limit` traced calls for the otlp export's spans (see spanSample.ts); what the intake offers it. */
  sampleSpans(limit: number): void {
    this.spans ??= new SpanSample(limit);
  }

  /** The statuses expected of an endpoint's executions by the rules (its own list, or the run-wide one). */
  expectedOf(endpoint: string): StatusSet {
    return this.endpointRule(endpoint) ?? this.runWide;
  }

  private endpointRule(endpoint: string): StatusSet | undefined {
    return this.expectedByEndpoint?.get(endpoint) ?? this.expectedOfTemplate?.(endpoint);
  }

  /** Whether an execution this slow enters the slowest list (ties keep the earlier one). */
  isAmongSlowest(responseTimeMs: number): boolean {
    return this.slowest.length < SLOWEST_EXECUTION_COUNT || responseTimeMs > this.slowest[this.slowest.length - 1]!.responseTimeMs;
  }

  /** Puts an execution into the slowest list, after every one at least as slow. */
  addSlowest(execution: SlowExecution): void {
    let at = this.slowest.length;
    while (at > 0 && this.slowest[at - 1]!.responseTimeMs < execution.responseTimeMs) at--;
    if (at >= SLOWEST_EXECUTION_COUNT) return;
    this.slowest.splice(at, 0, execution);
    if (this.slowest.length > SLOWEST_EXECUTION_COUNT) this.slowest.pop();
  }

  /** Adds what another accumulator counted; its records come after this one's. The threshold and rules must be the same. */
  merge(other: ExecutionAccumulator | ExecutionData): void {
    const data = other instanceof ExecutionAccumulator ? other.toData() : other;
    const { labels, counts, outcomes, sampleCounts, runCounts, samples, sorted, sums } = data;
    let outcomeAt = 0;
    let entryAt = 0;
    let runAt = 0;
    let sumAt = 0;
    let binAt = 0;
    // The samples of one entry of `sampleCounts`, adopted (a view, not a copy) with their sum's partials and histogram when sent.
    const adoptNext = (buffer: SampleBuffer): void => {
      const count = sampleCounts[entryAt]!;
      const runCount = runCounts[entryAt]!;
      const sumCount = sums?.sumCounts[entryAt] ?? 0;
      const binCount = sums?.binCounts[entryAt] ?? 0;
      if (count > 0) {
        const histogram =
          sums === undefined ? undefined : { zeroCount: sums.zeroCounts[entryAt]!, bins: sums.bins.subarray(binAt, binAt + 2 * binCount) };
        buffer.adoptRuns(
          samples.slice(runAt, runAt + runCount),
          sorted,
          sums === undefined ? undefined : Array.from(sums.partials.subarray(sumAt, sumAt + sumCount)),
          histogram,
        );
      }
      entryAt++;
      runAt += runCount;
      sumAt += sumCount;
      binAt += 2 * binCount;
    };
    const tallies: EndpointTally[] = [];
    for (let index = 0; index < labels.length; index++) {
      const tally = this.slot(labels[index]!);
      tallies.push(tally);
      const base = index * ENDPOINT_FIELDS;
      tally.executionCount += counts[base + FIELD_EXECUTIONS]!;
      tally.failedExecutionCount += counts[base + FIELD_FAILED]!;
      tally.expectedErrorCount += counts[base + FIELD_EXPECTED_ERRORS]!;
      tally.serverErrorCount += counts[base + FIELD_SERVER_ERRORS]!;
      tally.slowExecutionCount += counts[base + FIELD_SLOW]!;
      tally.noResponseCount += counts[base + FIELD_NO_RESPONSE]!;
      tally.newConnectionCount += counts[base + FIELD_NEW_CONNECTIONS]!;
      const flags = counts[base + FIELD_FLAGS]!;
      tally.timed ||= (flags & FLAG_TIMED) !== 0;
      tally.learnable ||= (flags & FLAG_LEARNABLE) !== 0;
      const outcomeCount = counts[base + FIELD_OUTCOMES]!;
      for (let outcome = 0; outcome < outcomeCount; outcome++) adoptNext(tally.timesOf(outcomes[outcomeAt++]!));
      adoptNext(tally.waits);
    }
    for (const { index, bodies, conditions, evidence, browser, reported } of data.details) {
      const tally = tallies[index]!;
      if (bodies !== undefined) (tally.bodies ??= new BodyTally()).merge(bodies);
      if (conditions !== undefined) (tally.conditions ??= new ConditionTally()).merge(conditions);
      if (evidence !== undefined) (tally.evidence ??= new EndpointEvidence()).merge(evidence);
      if (browser !== undefined) (tally.browser ??= new BrowserShare()).merge(browser);
      if (reported !== undefined) {
        (tally.reported ??= new ReportedShare()).merge(reported.share);
        for (const { outcome, times } of reported.outcomes) tally.timesOf(outcome).adoptSummarised(times);
      }
    }
    for (const execution of data.slowest) if (this.isAmongSlowest(execution.responseTimeMs)) this.addSlowest(execution);
    if (data.reportedSources !== undefined) this.addReportedSources(data.reportedSources);
    if (data.spans !== undefined) (this.spans ??= new SpanSample(data.spans.limit)).merge(data.spans);
  }

  /**
   * Adds what another accumulator counted, as {@link merge} does, taking its
   * tallies rather than copying them: an endpoint new here is moved as it
   * is (a range read on this thread costs no copy). `other` must not be
   * used afterwards.
   */
  mergeTaking(other: ExecutionAccumulator): void {
    for (const [endpoint, tally] of other.tallies) {
      const mine = this.tallies.get(endpoint);
      if (mine === undefined) {
        this.tallies.set(endpoint, tally);
        continue;
      }
      mine.executionCount += tally.executionCount;
      mine.failedExecutionCount += tally.failedExecutionCount;
      mine.expectedErrorCount += tally.expectedErrorCount;
      mine.serverErrorCount += tally.serverErrorCount;
      mine.slowExecutionCount += tally.slowExecutionCount;
      mine.noResponseCount += tally.noResponseCount;
      mine.newConnectionCount += tally.newConnectionCount;
      mine.timed ||= tally.timed;
      mine.learnable ||= tally.learnable;
      tally.outcomes.forEach((outcome, index) => {
        mine.timesOf(outcome).adoptBuffer(tally.outcomeTimes[index]!);
      });
      mine.waits.adoptBuffer(tally.waits);
      if (tally.bodies !== undefined) (mine.bodies ??= new BodyTally()).merge(tally.bodies.toData());
      if (tally.conditions !== undefined) (mine.conditions ??= new ConditionTally()).merge(tally.conditions.result());
      if (tally.evidence !== undefined) (mine.evidence ??= new EndpointEvidence()).merge(tally.evidence.toData());
      if (tally.browser !== undefined) (mine.browser ??= new BrowserShare()).merge(tally.browser.toData());
      if (tally.reported !== undefined) (mine.reported ??= new ReportedShare()).merge(tally.reported.toData());
    }
    for (const execution of other.slowest) if (this.isAmongSlowest(execution.responseTimeMs)) this.addSlowest(execution);
    const sources = other.reportedSources;
    if (sources !== undefined) this.addReportedSources({ api: sources.api.toData(), browser: sources.browser.toData() });
    if (other.spans !== undefined) (this.spans ??= new SpanSample(other.spans.limit)).merge(other.spans);
    other.tallies.clear();
    other.slowest = [];
    other.reportedSources = undefined;
    other.spans = undefined;
  }

  /**
   * Sorts, sums and counts into histograms every endpoint's samples (see
   * SampleBuffer.seal): what a thread does with its part before the run
   * takes it, while the other threads still read theirs.
   */
  seal(): void {
    for (const tally of this.tallies.values()) {
      for (const buffer of tally.outcomeTimes) buffer.seal(flatHistogramOfRuns);
      tally.waits.seal();
    }
  }

  /** Says where the slowest and the failed executions are anew (a part read on its own, placed in its whole input). */
  relocate(locate: <Execution extends SlowExecution | FailedExecution>(execution: Execution) => Execution): void {
    this.slowest = this.slowest.map(locate);
    for (const tally of this.tallies.values()) tally.evidence?.relocate(locate);
  }

  /**
   * The state as plain data: every sample copied into one array (this
   * accumulator's own are left as they were). `sorted` sorts each outcome's
   * samples there and sums them exactly, so that the thread that merges
   * neither sorts nor sums (worker threads do both in parallel). `last`:
   * nothing is added or read here afterwards, so each buffer's samples are
   * let go once copied (a worker thread's peak memory holds them once).
   */
  toData({ sorted = false, last = false }: { readonly sorted?: boolean; readonly last?: boolean } = {}): ExecutionData {
    const sources = this.reportedSources;
    return {
      ...packTallies([...this.tallies], sorted, last),
      slowest: [...this.slowest],
      ...(sources === undefined ? {} : { reportedSources: { api: sources.api.toData(), browser: sources.browser.toData() } }),
      ...(this.spans === undefined ? {} : { spans: this.spans.toData() }),
    };
  }

  /**
   * Renames endpoints, as learning templates does at the end of a run
   * (`GET /usuarios/8P0B…` to `GET /usuarios/:id`): the tallies renamed to
   * one label are merged into it, and the slowest executions take the new
   * labels. Counts, samples and sums merge exactly, in any order.
   */
  relabel(renamed: ReadonlyMap<string, string>): void {
    if (renamed.size === 0) return;
    this.spans?.relabel(renamed);
    const moved = [...this.tallies].filter(([endpoint]) => renamed.has(endpoint));
    for (const [endpoint] of moved) this.tallies.delete(endpoint);
    const slowest = this.slowest.map((execution) => {
      const endpoint = renamed.get(execution.endpoint);
      return endpoint === undefined ? execution : { ...execution, endpoint };
    });
    this.slowest = [];
    this.merge({
      ...packTallies(
        moved.map(([endpoint, tally]) => [renamed.get(endpoint)!, tally]),
        false,
      ),
      slowest,
    });
  }

  /** The arrays of {@link toData}, for a transfer list. */
  static transferables(data: ExecutionData): ArrayBuffer[] {
    const arrays = [
      data.counts,
      data.sampleCounts,
      data.runCounts,
      ...data.samples,
      ...(data.sums === undefined
        ? []
        : [data.sums.partials, data.sums.sumCounts, data.sums.zeroCounts, data.sums.binCounts, data.sums.bins]),
      ...data.details.flatMap(({ browser }) => browser?.times ?? []),
    ];
    return [...new Set(arrays.map((array) => array.buffer as ArrayBuffer))];
  }

  /**
   * The statistics of everything added and merged so far. `letGoOfSamples`:
   * each endpoint's samples are let go once it is described (the run's own
   * statistics taken first), so that a run of 50,000 endpoints does not hold
   * all its samples beside their statistics and report (about 40 MB); the
   * accumulator then gives no statistics again. What an evidence run's
   * `finish` asks; kept for runs with a browser's calls or reports taken in,
   * whose split by source reads every endpoint's samples at the end.
   */
  result({ letGoOfSamples = false }: { readonly letGoOfSamples?: boolean } = {}): ExecutionStatistics {
    if (this.samplesLetGo) throw new Error('the samples were let go when the statistics were taken: they can be taken once');
    const labels = [...this.tallies.keys()].sort(compareCodeUnits);
    const letGo =
      letGoOfSamples &&
      this.reportedSources === undefined &&
      !this.anyTally((tally) => tally.reported !== undefined || tally.browser !== undefined);
    this.samplesLetGo = letGo;
    // The histograms that guide the run-wide percentiles, made only when they are selected (few long runs, not tens of
    // thousands of small endpoints' runs, which are joined): each buffer's kept here, flat, until its endpoint takes it.
    const histograms = new Map<SampleBuffer, FlatHistogram>();
    const histogramOfBuffer = (buffer: SampleBuffer): StatusHistogram => {
      const made = histograms.get(buffer);
      histograms.delete(buffer);
      return made === undefined ? statusHistogramOf(buffer) : { flat: made, histogram: histogramOfFlat(made) };
    };
    let runWideGuide: RankGuide | undefined;
    const runWide = letGo
      ? runWideStatistics([...this.tallies.values()], (rank) => {
          if (runWideGuide === undefined) {
            for (const tally of this.tallies.values())
              for (const buffer of tally.outcomeTimes) histograms.set(buffer, flatHistogramOf(buffer));
            runWideGuide = flatRankGuide([...histograms.values()]);
          }
          return runWideGuide(rank);
        })
      : undefined;
    const endpoints: EndpointStatistics[] = [];
    const allRuns: Float64Array[] = [];
    const allSum = new ExactSum();
    const statusCodes = new Map<number, number>();
    let executionCount = 0;
    let failedExecutionCount = 0;
    let expectedErrorCount = 0;
    let serverErrorCount = 0;
    let slowExecutionCount = 0;
    let noResponseCount = 0;
    // Endpoint labels always contain a space, so they are never integer-like
    // keys and the object keeps the sorted insertion order in JSON.
    const failureCountByEndpoint: Record<string, number> = {};
    const slowEndpoints: string[] = [];
    const noResponseEndpoints: string[] = [];
    const wholes: EndpointWhole[] = [];
    let anyReported = false;
    for (const endpoint of labels) {
      const tally = this.tallies.get(endpoint)!;
      const byOutcome = latencyByOutcome(tally, histogramOfBuffer);
      const runs = byOutcome.flatMap(({ runs }) => runs);
      const sum = new ExactSum();
      for (const outcome of byOutcome) sum.merge(outcome.sum);
      if (!letGo) {
        allRuns.push(...runs);
        allSum.merge(sum);
      }
      executionCount += tally.executionCount;
      failedExecutionCount += tally.failedExecutionCount;
      expectedErrorCount += tally.expectedErrorCount;
      serverErrorCount += tally.serverErrorCount;
      slowExecutionCount += tally.slowExecutionCount;
      noResponseCount += tally.noResponseCount;
      const codes = new Map(tally.statusCodes());
      for (const [code, count] of codes) statusCodes.set(code, (statusCodes.get(code) ?? 0) + count);
      if (tally.failedExecutionCount > 0) failureCountByEndpoint[endpoint] = tally.failedExecutionCount;
      if (tally.slowExecutionCount > 0) slowEndpoints.push(endpoint);
      if (tally.noResponseCount > 0) noResponseEndpoints.push(endpoint);
      // One status's bins are the endpoint's (shared: no one changes a histogram); several statuses' counted by threads
      // are added flat and made pairs once, others merged pair by pair, a bucket of one status alone being its pair.
      const flats = byOutcome.flatMap(({ flat }) => (flat === undefined ? [] : [flat]));
      const latencyHistogram =
        byOutcome.length === 1
          ? byOutcome[0]!.latency.latencyHistogram
          : flats.length === byOutcome.length
            ? histogramOfFlat(sumOfFlatHistograms(flats))
            : mergedStatusHistograms(byOutcome.map(({ latency }) => latency.latencyHistogram));
      const { reported } = tally;
      // One literal, then each optional key assigned in turn: every endpoint with the same keys shares one hidden class (a
      // spread of conditional parts gave each endpoint with evidence a class of its own: 36,000 at 50,000 endpoints, 20 MB).
      const statistics: Mutable<EndpointStatistics> = {
        endpoint,
        executionCount: tally.executionCount,
        failedExecutionCount: tally.failedExecutionCount,
        expectedErrorCount: tally.expectedErrorCount,
        slowExecutionCount: tally.slowExecutionCount,
        noResponseCount: tally.noResponseCount,
        serverErrorCount: tally.serverErrorCount,
        statusCodes: statusCodeObject(codes),
        responseTimeMs:
          reported === undefined
            ? describeRuns(runs, sum, rankGuide([latencyHistogram]))
            : describeHistogram(latencyHistogram, sum, ...boundsOf(runs, reported)),
        latencyHistogram,
        latencyByStatus: byOutcome.map(({ latency }) => latency),
      };
      anyReported ||= reported !== undefined;
      if (tally.timed) {
        // A report keeps no wait: an endpoint a report was taken into gives no time to first byte, which would be a part's.
        if (reported === undefined) statistics.timeToFirstByteMs = describeRuns(tally.waits.runs(), tally.waits.exactSum());
        statistics.newConnectionCount = tally.newConnectionCount;
      }
      if (tally.bodies !== undefined) statistics.bodies = tally.bodies.result();
      if (tally.conditions !== undefined) statistics.conditionsMet = tally.conditions.result();
      tally.evidence?.addResultTo(statistics);
      endpoints.push(statistics);
      wholes.push({
        executionCount: tally.executionCount,
        failedExecutionCount: tally.failedExecutionCount,
        noResponseCount: tally.noResponseCount,
        slowExecutionCount: tally.slowExecutionCount,
        runs: letGo ? [] : runs,
        browser: tally.browser,
        reported,
      });
      if (letGo) tally.letGoOfSamples();
    }
    const split = splitBySource(wholes, this.reportedSources);
    return {
      executionCount,
      failedExecutionCount,
      slowExecutionCount,
      failureCountByEndpoint,
      slowEndpoints,
      noResponseCount,
      noResponseEndpoints,
      expectedErrorCount,
      serverErrorCount,
      statusCodes: statusCodeObject(statusCodes),
      responseTimeMs:
        runWide ??
        (!anyReported
          ? describeRuns(
              allRuns,
              allSum,
              lazyRankGuide(() => endpoints.map(({ latencyHistogram }) => latencyHistogram)),
            )
          : describeReported(endpoints, allSum)),
      endpoints:
        split === undefined ? endpoints : endpoints.map((statistics, index) => ({ ...statistics, sources: split.byEndpoint[index]! })),
      slowestExecutions: [...this.slowest],
      ...(split === undefined ? {} : { sources: split.sources }),
    };
  }

  private anyTally(test: (tally: EndpointTally) => boolean): boolean {
    for (const tally of this.tallies.values()) if (test(tally)) return true;
    return false;
  }

  /**
   * The endpoints each of some tests (by testKeyOf) called, with its calls
   * and failed calls of each: what a failed test is named beside. One pass
   * over the endpoints, whatever the number of tests asked.
   */
  endpointsOfTests(keys: ReadonlySet<string>): Map<string, TestEndpoint[]> {
    const found = new Map<string, TestEndpoint[]>();
    if (keys.size === 0) return found;
    for (const [endpoint, tally] of this.tallies) {
      for (const key of keys) {
        const calls = tally.evidence?.callsOf(key);
        if (calls === undefined) continue;
        const list = found.get(key) ?? [];
        list.push({ endpoint, ...calls });
        found.set(key, list);
      }
    }
    return found;
  }

  /**
   * Lets go of every tally, the slowest executions and the spans: what a run
   * of tens of thousands of endpoints holds is not kept while its report is
   * written. The accumulator is then empty, as if new.
   */
  release(): void {
    this.tallies.clear();
    this.slowest = [];
    this.reportedSources = undefined;
    this.spans = undefined;
  }

  /** How many distinct endpoints have been counted. */
  endpointCount(): number {
    return this.tallies.size;
  }

  /** The labels automatic grouping made (see EndpointTally.learnable). */
  learnableEndpoints(): string[] {
    return [...this.tallies.values()].filter((tally) => tally.learnable).map((tally) => tally.endpoint);
  }

  /** Whether an endpoint label has been counted. */
  hasEndpoint(endpoint: string): boolean {
    return this.tallies.has(endpoint);
  }

  /** The tally of one endpoint label, made on first use. */
  slot(endpoint: string): EndpointTally {
    let tally = this.tallies.get(endpoint);
    if (tally === undefined) {
      tally = new EndpointTally(endpoint, this.endpointRule(endpoint)?.table ?? this.expected);
      this.tallies.set(endpoint, tally);
    }
    return tally;
  }
}

/** Tallies as flat data, each under the label given (see {@link ExecutionData}). */
function packTallies(
  entries: readonly (readonly [string, EndpointTally])[],
  sorted: boolean,
  last = false,
): Omit<ExecutionData, 'slowest'> {
  const labels: string[] = [];
  const counts = new Float64Array(entries.length * ENDPOINT_FIELDS);
  const outcomes: (number | string)[] = [];
  const buffers: SampleBuffer[] = [];
  const details: EndpointDetails[] = [];
  entries.forEach(([label, tally], index) => {
    labels.push(label);
    const base = index * ENDPOINT_FIELDS;
    counts[base + FIELD_EXECUTIONS] = tally.executionCount;
    counts[base + FIELD_FAILED] = tally.failedExecutionCount;
    counts[base + FIELD_EXPECTED_ERRORS] = tally.expectedErrorCount;
    counts[base + FIELD_SERVER_ERRORS] = tally.serverErrorCount;
    counts[base + FIELD_SLOW] = tally.slowExecutionCount;
    counts[base + FIELD_NO_RESPONSE] = tally.noResponseCount;
    counts[base + FIELD_NEW_CONNECTIONS] = tally.newConnectionCount;
    counts[base + FIELD_FLAGS] = (tally.timed ? FLAG_TIMED : 0) | (tally.learnable ? FLAG_LEARNABLE : 0);
    counts[base + FIELD_OUTCOMES] = tally.outcomes.length;
    outcomes.push(...tally.outcomes);
    buffers.push(...tally.outcomeTimes, tally.waits);
    const detailed = tally.bodies ?? tally.conditions ?? tally.evidence ?? tally.browser ?? tally.reported;
    if (detailed !== undefined) {
      details.push({
        index,
        ...(tally.bodies === undefined ? {} : { bodies: tally.bodies.toData() }),
        ...(tally.conditions === undefined ? {} : { conditions: tally.conditions.result() }),
        ...(tally.evidence === undefined ? {} : { evidence: tally.evidence.toData() }),
        ...(tally.browser === undefined ? {} : { browser: tally.browser.toData() }),
        ...(tally.reported === undefined ? {} : { reported: { share: tally.reported.toData(), outcomes: summarisedOutcomes(tally) } }),
      });
    }
  });
  const sampleCounts = new Float64Array(buffers.length);
  const runCounts = new Uint32Array(buffers.length);
  const samples: Float64Array[] = [];
  const partials: number[] = [];
  const sumCounts = new Uint8Array(sorted ? buffers.length : 0);
  const zeroCounts = new Float64Array(sorted ? buffers.length : 0);
  const binCounts = new Uint32Array(sorted ? buffers.length : 0);
  const bins: Float64Array[] = [];
  buffers.forEach((buffer, index) => {
    const runs = buffer.arrays(last);
    const count = runs.reduce((total, run) => total + run.length, 0);
    sampleCounts[index] = count;
    runCounts[index] = runs.length;
    for (const run of runs) samples.push(run);
    if (sorted && count > 0) {
      const { partials: sumPartials, histogram: flat } = sortedAndSummed(runs, flatHistogramOfRuns);
      sumCounts[index] = sumPartials.length;
      partials.push(...sumPartials);
      zeroCounts[index] = flat.zeroCount;
      binCounts[index] = flat.bins.length / 2;
      bins.push(flat.bins);
    }
  });
  const sums = sorted ? { partials: Float64Array.from(partials), sumCounts, zeroCounts, binCounts, bins: concatenated(bins) } : undefined;
  return { labels, counts, outcomes, sampleCounts, runCounts, samples, sorted, ...(sums === undefined ? {} : { sums }), details };
}

/** The fastest and the slowest of sorted runs and of bounds a report gave. */
function boundsOf(runs: readonly Float64Array[], { min, max }: { readonly min: number; readonly max: number }): [number, number] {
  let low = min;
  let high = max;
  for (const run of runs) {
    if (run.length === 0) continue;
    low = Math.min(low, run[0]!);
    high = Math.max(high, run[run.length - 1]!);
  }
  return [low, high];
}

/** The run's statistics when reports were taken: read from every endpoint's histogram, between the endpoints' bounds. */
function describeReported(endpoints: readonly EndpointStatistics[], sum: ExactSum): LatencyStatistics {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const { responseTimeMs } of endpoints) {
    min = Math.min(min, responseTimeMs.min ?? min);
    max = Math.max(max, responseTimeMs.max ?? max);
  }
  return describeHistogram(mergedHistogram(endpoints.map(({ latencyHistogram }) => latencyHistogram)), sum, min, max);
}

/** The times of each outcome of a tally that reports summarised. */
function summarisedOutcomes(tally: EndpointTally): SummarisedOutcome[] {
  return tally.outcomes.flatMap((outcome, index) => tally.outcomeTimes[index]!.summarisedParts().map((times) => ({ outcome, times })));
}

/** Status codes and their counts as an object with ascending keys (integer-like keys are ordered so in JSON). */
function statusCodeObject(counts: ReadonlyMap<number, number>): Record<string, number> {
  return sparseCounts([...counts].sort(([a], [b]) => a - b));
}

/** The error code of a call with no response whose record names none (a canonical record always does). */
const NO_RESPONSE = 'NO_RESPONSE';

// The statistics of every endpoint's times together, read before any endpoint's samples are let go.
function runWideStatistics(tallies: readonly EndpointTally[], guide: RankGuide): LatencyStatistics {
  const runs: Float64Array[] = [];
  const sum = new ExactSum();
  for (const tally of tallies) {
    for (const buffer of tally.outcomeTimes) {
      runs.push(...buffer.runs());
      sum.merge(buffer.exactSum());
    }
  }
  return describeRuns(runs, sum, guide);
}

/**
 * An endpoint's times by status code, then by error code, ascending: each
 * with its sorted runs, exact sum and histogram.
 */
function latencyByOutcome(
  tally: EndpointTally,
  histogramOfBuffer: (buffer: SampleBuffer) => StatusHistogram,
): { runs: Float64Array[]; sum: ExactSum; flat: FlatHistogram | undefined; latency: StatusLatency }[] {
  return tally.outcomes
    .map((outcome, index) => ({ outcome, buffer: tally.outcomeTimes[index]! }))
    .sort((a, b) => compareOutcomes(a.outcome, b.outcome))
    .map(({ outcome, buffer }) => {
      const runs = buffer.runs();
      const sum = buffer.exactSum();
      const { flat, histogram } = histogramOfBuffer(buffer);
      return {
        runs,
        sum,
        flat,
        latency: {
          outcome,
          executionCount: buffer.length,
          totalMs: roundToMicroseconds(sum.value()),
          latencyHistogram: histogram,
        },
      };
    });
}

/** A status's histogram as the report holds it, and flat when its threads counted it (to add to its endpoint's). */
interface StatusHistogram {
  readonly flat?: FlatHistogram | undefined;
  readonly histogram: LatencyHistogram;
}

/**
 * A buffer's histogram: its times' own sorted runs made pairs straight away
 * (a flat array for each of 100,000 statuses of 50,000 endpoints made the
 * peak 8 MB larger), reports' histograms merged as pairs, and what threads
 * counted kept flat as well.
 */
function statusHistogramOf(buffer: SampleBuffer): StatusHistogram {
  const { histograms, runs } = buffer.histogramParts();
  const summarised = buffer.summarisedParts();
  if (histograms.length === 0 && summarised.length === 0) return { histogram: histogramOfRuns(runs) };
  // Times only reports gave (merge): their histograms added up as they are, their pairs shared, as before flat histograms.
  if (histograms.length === 0 && runs.length === 0) return { histogram: mergedHistogram(summarised.map(({ histogram }) => histogram)) };
  const flat = flatHistogramOf(buffer);
  return { flat, histogram: histogramOfFlat(flat) };
}

/** The histogram of a buffer's samples, flat: the histograms its threads counted, and its own runs. */
function flatHistogramOf(buffer: SampleBuffer): FlatHistogram {
  const { histograms, runs } = buffer.histogramParts();
  const summarised = buffer.summarisedParts().map(({ histogram }) => histogram);
  if (histograms.length === 0 && summarised.length === 0) return flatHistogramOfRuns(runs);
  // Only what threads counted (an input read in ranges): their bins merged in order.
  if (summarised.length === 0 && runs.length === 0) return sumOfFlatHistograms(histograms);
  const counts = new HistogramCounts();
  for (const histogram of histograms) counts.mergeFlat(histogram);
  for (const histogram of summarised) counts.merge(histogram);
  for (const run of runs) counts.addSorted(run);
  return counts.toFlat();
}

/** Status codes first, ascending, then error codes in code-unit order. */
function compareOutcomes(a: number | string, b: number | string): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  return typeof b === 'number' ? 1 : compareCodeUnits(a, b);
}

function slowExecutionOf(record: CanonicalExecutionRecord): SlowExecution {
  const { endpoint, statusCode, errorCode, responseTimeMs, id } = record;
  return {
    endpoint,
    ...(statusCode === undefined ? { errorCode: errorCode ?? NO_RESPONSE } : { statusCode }),
    // -0 as 0, as the samples hold it.
    responseTimeMs: responseTimeMs + 0,
    ...(id === undefined ? {} : { id }),
  };
}

/**
 * Summarises canonical execution records with the default rules (failed:
 * no response, or a status of 400 or more), or the rules given.
 */
export function summariseExecutions(
  records: Iterable<CanonicalExecutionRecord>,
  slowResponseThresholdMs: number,
  rules?: ExpectationRules,
): ExecutionStatistics {
  const accumulator = new ExecutionAccumulator(slowResponseThresholdMs, rules);
  for (const record of records) accumulator.add(record);
  return accumulator.result();
}
