import { InputLimitError } from '../errors.js';
import { describeLocation, type RecordLocation } from '../issues/location.js';
import type { RecordBatch, ScannedColumns } from '../readers/recordBatch.js';
import type { EndpointBytes } from '../readers/recordScanner.js';
import { createEndpointLabelling, type EndpointLabel } from '../labels/endpointLabels.js';
import { learnTemplates } from '../labels/learnedTemplates.js';
import { expectedStatusesByTemplate } from './expectedByTemplate.js';
import type { EvidenceRules } from './evidenceRules.js';
import type { ExecutionRecord, executionRecordSchema } from '../records/executionRecord.js';
import { testKeyOf, type CallSource, type FailedExecution } from '../summary/endpointEvidence.js';
import type { SampledCall } from '../summary/spanSample.js';
import { isEndpointLabel, isExecutionRecord, MAX_DISTINCT_ENDPOINTS, parseRecordStatusList } from '../records/recordCheck.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { statusSet, unionOf, type StatusSet } from '../records/statusList.js';
import { RecordValidation } from '../records/validateRecordList.js';
import { ExecutionAccumulator, type EndpointTally } from '../summary/executionAccumulator.js';
import { groupDigits } from '../renderValue.js';

/** What the source of a record says about it besides its fields: for a test's records, the test, attempt and call (see CallSource). */
export interface RecordOrigin extends CallSource {
  /** Its endpoint was derived from a URL (HAR, the recording fixture), not written by a person: grouped by default. */
  readonly derivedFromUrl?: boolean;
  /**
   * Statuses its test expects too (an `expected-status` annotation): added to
   * those the rules expect of the endpoint. The record's own
   * `expectedStatuses` wins over both.
   */
  readonly alsoExpected?: StatusSet | undefined;
  /** The excerpt of its response body (failureExcerptBytes), asked for only when the report keeps the call among its failed ones. */
  readonly excerptOf?: (() => string | undefined) | undefined;
  /** The host and port the call went to, where the reporter knows them (a URL the test wrote absolute): its span's server.address. */
  readonly server?: { readonly address: string; readonly port: number } | undefined;
}

const LABEL_CACHE_LIMIT = 10_000;

/** The trace a failing attempt of a test was seen with: the attempt, the trace id, and whether a failed call of it had that id. */
interface TestTrace {
  readonly attempt: number;
  readonly traceId: string;
  readonly failedCall: boolean;
}

/** A failed call's method and path (query removed), from its endpoint as recorded. */
function failedPlaceOf(written: string): { readonly method: string; readonly path: string } {
  const endpoint = normaliseEndpoint(written);
  const space = endpoint.indexOf(' ');
  return { method: endpoint.slice(0, space), path: endpoint.slice(space + 1).split(/[?#]/, 1)[0]! };
}

/** The trace and span ids a record carries, as the report keeps them beside a call: none when the run keeps no trace id. */
function traceIdsOf({ traceId, spanId }: ExecutionRecord, keep: boolean): { readonly traceId?: string; readonly spanId?: string } {
  if (!keep || traceId === undefined) return {};
  return spanId === undefined ? { traceId } : { traceId, spanId };
}

/** A failed call as the report lists it: its method and path (query removed) as recorded, its outcome, and where it came from. */
function failedExecutionOf(
  record: ExecutionRecord,
  origin: RecordOrigin | undefined,
  location: RecordLocation,
  keepTraces: boolean,
): FailedExecution {
  const { method, path } = failedPlaceOf(record.endpoint);
  const { statusCode, errorCode, responseTimeMs, id } = record;
  return {
    method,
    path,
    ...(statusCode === undefined ? { errorCode: errorCode! } : { statusCode }),
    responseTimeMs: responseTimeMs + 0,
    ...(origin?.test === undefined ? {} : { test: origin.test }),
    ...(origin?.attempt === undefined ? {} : { attempt: origin.attempt }),
    ...(origin?.callLocation === undefined ? {} : { callLocation: origin.callLocation }),
    ...(id === undefined ? {} : { id }),
    ...traceIdsOf(record, keepTraces),
    location,
    ...(record.excerpt === undefined ? {} : { excerpt: record.excerpt }),
    ...(record.source === 'browser' ? { source: 'browser' as const } : {}),
  };
}

/** A traced call as the span sample keeps it (see spanSample.ts): a record with all four of its trace fields. */
function sampledCallOf(
  record: ExecutionRecord,
  endpoint: string,
  failed: boolean,
  slow: boolean,
  origin: RecordOrigin | undefined,
): SampledCall {
  const { traceId, spanId, parentSpanId, startedAtMs, responseTimeMs, statusCode, errorCode } = record;
  const test = origin?.test;
  return {
    traceId: traceId!,
    spanId: spanId!,
    parentSpanId: parentSpanId!,
    startedAtMs: startedAtMs!,
    responseTimeMs: responseTimeMs + 0,
    endpoint,
    ...(statusCode === undefined ? { errorCode: errorCode! } : { statusCode }),
    failed,
    slow,
    ...(test === undefined ? {} : { test: { title: test.title, file: test.file, line: test.line } }),
    ...(origin?.attempt === undefined ? {} : { attempt: origin.attempt }),
    ...(origin?.testPassed === undefined ? {} : { testPassed: origin.testPassed }),
    ...(origin?.server === undefined ? {} : { server: { address: origin.server.address, port: origin.server.port } }),
  };
}

/** More distinct endpoints than {@link MAX_DISTINCT_ENDPOINTS}: at a record's location, or, for ranges merged, in all. */
export function tooManyEndpoints(location?: RecordLocation): InputLimitError {
  const limit = groupDigits(MAX_DISTINCT_ENDPOINTS);
  const where =
    location === undefined ? `the inputs hold more than ${limit}` : `${describeLocation(location)} brings the count past ${limit}`;
  return new InputLimitError(
    `too many distinct endpoints: ${where}, the most one report holds; ids are probably in the paths: ` +
      'group them with --route /orders/:id (QE_ROUTES) or --endpoint-grouping auto',
  );
}

/**
 * Where raw execution records go in: each is validated (problems kept with
 * their locations), its endpoint normalised and labelled, and it is counted
 * in the summary, making no object per record. The one intake of the
 * workflow, of a worker thread's range and of the Playwright reporter.
 */
export class RecordIntake {
  readonly validation: RecordValidation<typeof executionRecordSchema>;
  readonly accumulator: ExecutionAccumulator;
  /** The input being read, named in the locations of the slowest executions (a JSON list's positions name no file of their own). */
  inputName: string | undefined;
  private readonly label: (label: string, derivedFromUrl: boolean) => EndpointLabel;
  /** Labels of calls no record accounts for that grouping made ({@link labelOf}): learning sees them too. */
  private readonly learnableCalls = new Set<string>();
  private readonly labels = [new Map<string, EndpointTally>(), new Map<string, EndpointTally>()] as const;
  private readonly unions = new Map<string, StatusSet>();
  /** Per input's scanned endpoints (see takeScanned): each id's tally, or null when the record check refuses the endpoint. */
  private readonly scannedSlots = new WeakMap<EndpointBytes, (EndpointTally | null)[]>();
  /** Whether the report keeps the trace ids records carry (the traceContext setting). */
  private readonly keepTraces: boolean;
  /** Per test (by testKeyOf) whose attempts failed: the trace of its last failed attempt (see {@link traceOfTest}). */
  private readonly testTraces = new Map<string, TestTrace>();

  /**
   * @param options.schema explains invalid records (`executionRecordSchema`);
   * without it, as in a worker thread that loads no zod, the first invalid
   * record throws an UnexplainedRecordError.
   * @param options.noun what a record is called in the summary line of a validation error.
   */
  constructor(
    rules: EvidenceRules,
    { schema, noun = 'record' }: { readonly schema?: typeof executionRecordSchema; readonly noun?: string } = {},
  ) {
    this.validation = new RecordValidation(schema, { noun, isValid: isExecutionRecord });
    const byEndpoint = Object.entries(rules.expectedStatusesByEndpoint ?? {});
    const expectedStatusesByEndpoint = new Map(
      byEndpoint.map(([endpoint, list]) => [normaliseEndpoint(endpoint), statusSet(list)] as const),
    );
    this.accumulator = new ExecutionAccumulator(rules.slowResponseThresholdMs, {
      expectedStatuses: rules.expectedStatuses === undefined ? undefined : statusSet(rules.expectedStatuses),
      expectedStatusesByEndpoint,
      expectedStatusesOf: expectedStatusesByTemplate(expectedStatusesByEndpoint),
    });
    this.label = createEndpointLabelling(rules);
    this.keepTraces = rules.traceContext !== false;
    if (rules.spanLimit !== undefined && rules.spanLimit > 0) this.accumulator.sampleSpans(rules.spanLimit);
  }

  /** Lets go of the tallies and of the labels that lead to them (see ExecutionAccumulator.release). */
  release(): void {
    this.accumulator.release();
    for (const cache of this.labels) cache.clear();
    this.unions.clear();
    this.learnableCalls.clear();
    this.testTraces.clear();
  }

  /** Takes one record; `locate` is called only when it is invalid, failed or among the slowest. */
  take(record: unknown, locate: () => RecordLocation, origin?: RecordOrigin): void {
    if (!this.validation.check(record, locate)) return;
    const { statusCode, responseTimeMs, timingMs, expectedStatuses } = record;
    const slot = this.slotOf(record.endpoint, origin?.derivedFromUrl === true, locate);
    const { endpoint } = slot;
    const expected =
      expectedStatuses !== undefined
        ? (parseRecordStatusList(expectedStatuses) as { set: StatusSet }).set
        : origin?.alsoExpected === undefined
          ? undefined
          : this.widened(endpoint, origin.alsoExpected);
    const { accumulator } = this;
    // A valid record has a status code or, when it got no response, an error code.
    const failed = accumulator.addToSlot(
      slot,
      statusCode ?? record.errorCode!,
      responseTimeMs,
      expected,
      timingMs?.wait,
      timingMs?.connect,
    );
    if (record.bodyCheck !== undefined) accumulator.addBodyCheck(slot, record.bodyCheck);
    if (record.conditions !== undefined) accumulator.addConditions(slot, record.conditions);
    if (record.source === 'browser') accumulator.addBrowserExecution(slot, failed, statusCode === undefined, responseTimeMs);
    if (failed || origin?.test !== undefined) {
      const serverError = failed && (statusCode === undefined || statusCode >= 500);
      accumulator.addEvidence(
        slot,
        failed,
        serverError,
        origin,
        () => failedExecutionOf(record, origin, this.named(locate()), this.keepTraces),
        origin?.excerptOf,
      );
    }
    const { spans } = accumulator;
    if (spans !== undefined && record.parentSpanId !== undefined && record.startedAtMs !== undefined) {
      const slow = responseTimeMs > accumulator.slowResponseThresholdMs;
      if (record.spanId !== undefined && record.traceId !== undefined && spans.admits(failed, slow, record.spanId))
        spans.add(sampledCallOf(record, endpoint, failed, slow, origin));
    }
    if (accumulator.isAmongSlowest(responseTimeMs)) {
      const { id, errorCode } = record;
      accumulator.addSlowest({
        endpoint,
        ...(statusCode === undefined ? { errorCode: errorCode! } : { statusCode }),
        // -0 as 0, as the samples hold it.
        responseTimeMs: responseTimeMs + 0,
        ...(id === undefined ? {} : { id }),
        ...traceIdsOf(record, this.keepTraces),
        location: this.named(locate()),
        ...(record.source === 'browser' ? { source: 'browser' as const } : {}),
      });
    }
    if (this.keepTraces && record.traceId !== undefined && origin?.test !== undefined && origin.testPassed !== true)
      this.noteTestTrace(testKeyOf(origin.test), origin.attempt ?? 0, record.traceId, failed);
  }

  /**
   * The trace id a failed test is shown with: that of its last attempt that
   * failed and had a call with one (a failed test's attempts all failed, so
   * its last), of the first of that attempt's failed calls with one, or,
   * where none of them had one, of the attempt's first call with one.
   * Undefined when none of its calls had one, or the run keeps no trace id.
   */
  traceOfTest(key: string): string | undefined {
    return this.testTraces.get(key)?.traceId;
  }

  // Remembers a trace of a failing attempt: a later attempt's replaces an earlier one's, a failed call's a call's that did not fail.
  private noteTestTrace(key: string, attempt: number, traceId: string, failedCall: boolean): void {
    const known = this.testTraces.get(key);
    if (known === undefined || attempt > known.attempt || (attempt === known.attempt && failedCall && !known.failedCall))
      this.testTraces.set(key, { attempt, traceId, failedCall });
  }

  /** The label of an endpoint derived from a URL (a call no record accounts for), by the rules records are labelled by. */
  labelOf(endpoint: string): string {
    const { label, grouped } = this.label(normaliseEndpoint(endpoint), true);
    if (grouped) this.learnableCalls.add(label);
    return label;
  }

  /** The label a record's endpoint is counted under (before learning), with no other effect. */
  labelFor(endpoint: string, derivedFromUrl: boolean): string {
    return this.label(normaliseEndpoint(endpoint), derivedFromUrl).label;
  }

  /**
   * The templates learned from every label grouping made, counted or not
   * (see learnedTemplates.ts): the labels they change, each to its template.
   * Depends only on the set of labels, so a run split into parts learns
   * what the whole run would.
   */
  learnedLabels(): ReadonlyMap<string, string> {
    const learnable = [...this.learnableCalls, ...this.accumulator.learnableEndpoints()];
    return learnable.length === 0 ? new Map() : learnTemplates(learnable);
  }

  /** Takes every record of a reader's batch. */
  takeBatch(batch: RecordBatch): void {
    const { records, scanned } = batch;
    if (scanned !== undefined) {
      this.takeScanned(batch, scanned);
      return;
    }
    const origin = batch.derivedEndpoints === true ? { derivedFromUrl: true } : undefined;
    for (let index = 0; index < records.length; index++) this.take(records[index], () => batch.location(index), origin);
  }

  /**
   * Takes a batch whose records the byte scanner read: a record of a valid
   * endpoint that did not fail and is not among the slowest is counted from
   * its columns alone; any other (unscanned, failed, slowest, an endpoint
   * the record check refuses) is parsed and taken as {@link take} takes it,
   * so that it is explained, located and listed exactly as before.
   */
  private takeScanned(batch: RecordBatch, scanned: ScannedColumns): void {
    const { records } = batch;
    const { accumulator } = this;
    let slots = this.scannedSlots.get(scanned.endpoints);
    if (slots === undefined) {
      slots = [];
      this.scannedSlots.set(scanned.endpoints, slots);
    }
    const { endpoint, statusCode, responseTimeMs } = scanned;
    let counted = 0;
    for (let index = 0; index < records.length; index++) {
      const id = endpoint[index]!;
      let slot = id < 0 ? null : slots[id];
      if (slot === undefined) slot = slots[id] = this.scannedSlot(scanned.endpoints.text(id), batch, index);
      const time = responseTimeMs[index]!;
      if (slot === null || accumulator.isAmongSlowest(time)) {
        this.take(id < 0 ? records[index] : scanned.record(index), () => batch.location(index));
        continue;
      }
      const status = statusCode[index]!;
      if (accumulator.addToSlot(slot, status, time)) this.addScannedFailure(slot, batch, scanned, index);
      counted++;
    }
    this.validation.countValid(counted);
  }

  // The tally of a scanned endpoint, or null when the record check refuses it (its records are then taken whole, which explains them).
  private scannedSlot(written: string, batch: RecordBatch, index: number): EndpointTally | null {
    return isEndpointLabel(written) ? this.slotOf(written, false, () => batch.location(index)) : null;
  }

  // Lists a scanned failed call as take() lists one: its method and path as written (query removed), status, time, id and place.
  private addScannedFailure(slot: EndpointTally, batch: RecordBatch, scanned: ScannedColumns, index: number): void {
    const statusCode = scanned.statusCode[index]!;
    // Most failed calls of a large input are not kept (an endpoint lists 5): those make no record of the call, nor
    // even of its place, when its line tells.
    const { lineFile } = scanned;
    if (lineFile !== undefined && slot.evidence?.admitsAtLine(statusCode, lineFile, scanned.lineOf(index)) === false) return;
    const place = batch.location(index);
    const location = this.named(place);
    if (place.kind !== 'line' && slot.evidence?.admits({ statusCode, location }) === false) return;
    // No test: the call counts for none, so whether it was a server error matters to no test's tally.
    this.accumulator.addEvidence(slot, true, false, undefined, () => {
      const { method, path } = failedPlaceOf(scanned.endpoints.text(scanned.endpoint[index]!));
      const id = scanned.idOf(index);
      const responseTimeMs = scanned.responseTimeMs[index]!;
      return { method, path, statusCode, responseTimeMs, ...(id === undefined ? {} : { id }), location };
    });
  }

  // Normalises and labels one endpoint and finds its tally, remembering the result: inputs repeat a few hundred labels millions of times.
  private slotOf(written: string, derivedFromUrl: boolean, locate: () => RecordLocation): EndpointTally {
    const cache = this.labels[derivedFromUrl ? 1 : 0];
    const known = cache.get(written);
    if (known !== undefined) return known;
    const { label, grouped } = this.label(normaliseEndpoint(written), derivedFromUrl);
    if (this.accumulator.endpointCount() >= MAX_DISTINCT_ENDPOINTS && !this.accumulator.hasEndpoint(label))
      throw tooManyEndpoints(this.named(locate()));
    const slot = this.accumulator.slot(label);
    if (grouped) slot.learnable = true;
    if (cache.size < LABEL_CACHE_LIMIT) cache.set(written, slot);
    return slot;
  }

  // The endpoint's expected statuses and a test's, remembered per pair: a suite repeats both.
  private widened(endpoint: string, also: StatusSet): StatusSet {
    const key = `${endpoint}\u0000${also.text}`;
    let union = this.unions.get(key);
    if (union === undefined) {
      union = unionOf(this.accumulator.expectedOf(endpoint), also);
      if (this.unions.size < LABEL_CACHE_LIMIT) this.unions.set(key, union);
    }
    return union;
  }

  private named(location: RecordLocation): RecordLocation {
    return location.kind === 'list' && location.file === undefined && this.inputName !== undefined
      ? { ...location, file: this.inputName }
      : location;
  }
}
