import type { RecordLocation } from '../issues/location.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import type { RecordBatch } from '../readers/recordBatch.js';
import type { EvidenceRules } from './evidenceRules.js';
import type { BodyChecker } from '../contract/bodyConformance.js';
import { conditionsRecordOf } from '../contract/conditionsMet.js';
import type { ContractOperation } from '../contract/contract.js';
import type { BodyCheck } from '../records/bodyCheck.js';
import type { ConditionsRecord } from '../records/conditionsRecord.js';
import type { RecordedBodies, RecordedBody } from '../readers/recordBatch.js';
import { isExecutionRecord } from '../records/recordCheck.js';
import { DEFAULT_EXPECTED_STATUSES, statusSet } from '../records/statusList.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { createFailureExcerpter } from '../records/failureExcerpt.js';
import { executionRecordSchema } from '../records/executionRecord.js';
import { MAX_DISTINCT_ENDPOINTS } from '../records/recordCheck.js';
import type { QualityReport } from '../report/qualityReport.js';
import { buildReport, type ReportContext } from '../report/buildReport.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import {
  ExecutionAccumulator,
  type EndpointStatistics,
  type ExecutionData,
  type ExecutionStatistics,
} from '../summary/executionAccumulator.js';
import { judgeReport, type Judgement } from '../evaluation/judgeReport.js';
import { testKeyOf, type TestIdentity } from '../summary/endpointEvidence.js';
import { failedTestsOf, type FailedTestFact } from '../summary/failedTests.js';
import type { SampledCall } from '../summary/spanSample.js';
import { RecordIntake, tooManyEndpoints, type RecordOrigin } from './recordIntake.js';

/** What a run needs of the settings: the rules its records are counted by, and the environment its report names. */
export interface EvidenceSettings extends EvidenceRules {
  readonly environment: string;
  /** The bytes of a failed call's response body its record keeps (a HAR file's kept bodies); 0 or absent for none. */
  readonly failureExcerptBytes?: number | undefined;
  /** Keys whose values an excerpt replaces, besides those that look secret. */
  readonly redactKeys?: readonly string[] | undefined;
}

/** How a run is set up besides its settings. */
export interface EvidenceRunOptions {
  /** Budgets and a baseline, loaded before the run (see loadJudgement): `finish` judges the report by them. */
  readonly judgement?: Judgement | undefined;
  /** What a record is called in the summary line of a validation error: `recorded execution` in the reporter. */
  readonly noun?: string | undefined;
  /**
   * Checks the bodies a reader kept beside its records (a HAR file's) against
   * the judgement's contract (see createBodyChecker): each record of such a
   * batch is counted with its body check.
   */
  readonly bodyChecker?: BodyChecker | undefined;
}

/** A part of the run counted elsewhere (a worker thread's range, a shard): its summary and its problems, located in the whole input. */
export interface EvidencePart {
  /** Flat data from another thread, or an accumulator counted on this one (taken, not copied). */
  readonly summary: ExecutionData | ExecutionAccumulator;
  readonly issues: readonly RecordIssue[];
  readonly recordCount: number;
  readonly invalidRecordCount: number;
  readonly unlistedRecordCount: number;
}

/**
 * What a run's feeder knows only once every record is in: where the records
 * came from and what else it saw. Its failed tests are named as the feeder
 * knows them; the run finds the endpoints their calls reached.
 */
export type RunFacts = Omit<ReportContext, 'environment' | 'slowResponseThresholdMs' | 'flakyEndpoints' | 'failedTests'> & {
  readonly failedTests?: readonly FailedTestFact[] | undefined;
};

/**
 * The one evidence run every entry point feeds: the command and the runners
 * (records read from files, and worker threads' parts), the Playwright
 * reporter (records its tests attached, calls rebuilt from steps) and the
 * library API. `take` counts one located record (validated, labelled,
 * summarised); `absorb` adds a part counted elsewhere; `finish` gives the
 * report, judged by the budgets and the baseline, or throws the validation
 * error that names every invalid record. Touches no file: loading what a
 * run is judged by and publishing its report are the feeder's.
 */
export interface EvidenceRun {
  /** Names the input that the records taken next come from, for the locations of the slowest executions. */
  startInput(name: string | undefined): void;
  /** One record; `locate` is called only when a message or the slowest executions need its location. */
  take(record: unknown, locate: () => RecordLocation, origin?: RecordOrigin): void;
  /** Every record of a reader's batch. */
  takeBatch(batch: RecordBatch): void;
  /** A record its reader found invalid already (a HAR entry without a request), with its issue. */
  takeInvalid(issue: RecordIssue): void;
  /** The label a call to `endpoint` (`GET /users/8P0B`, derived from a URL) is reported under: the run's routes, its contract, its grouping. */
  labelOf(endpoint: string): string;
  /** A part counted elsewhere (see {@link EvidencePart}); a run of parts is the run of their concatenation. */
  absorb(part: EvidencePart): void;
  /** The report. Throws a RecordValidationError when any record taken or absorbed was invalid. */
  finish(facts?: RunFacts): QualityReport;
  /**
   * The traced calls kept for the otlp export's spans (see spanSample.ts),
   * under the report's labels, once `finish` gave the report; undefined
   * before, or when the run keeps none (its rules' `spanLimit` is 0). Never
   * part of the report: a report is the same bytes with or without it.
   */
  spans(): readonly SampledCall[] | undefined;
  /**
   * For each test given, the labels of the endpoints its calls reached, as
   * the report names them (code-unit order), once `finish` gave the report
   * (before, labels a run learns are not final): what a history line keeps
   * of each test. Every test counted, none capped as the report's lists are.
   */
  endpointsOfTests(tests: readonly TestIdentity[]): string[][];
  /**
   * Lets go of every tally once the report is made and the tests' endpoints
   * were asked for: a run of 50,000 endpoints holds about 120 MB of them,
   * not needed while its report is written. Afterwards only `spans` answers;
   * taking, absorbing, finishing or asking for tests' endpoints throws.
   */
  release(): void;
}

/** The rules a run labels by: its settings', and the operations of the contract it is judged by, when it has one. */
export function rulesWithContract<Rules extends EvidenceRules>(rules: Rules, { contract }: Judgement): Rules {
  if (contract === undefined) return rules;
  // Only what matching needs: these cross to worker threads.
  return {
    ...rules,
    operations: contract.operations.map(({ method, path, basePaths, integerParameters }) => ({
      method,
      path,
      basePaths,
      integerParameters,
    })),
  };
}

/** Starts an evidence run (see {@link EvidenceRun}). */
export function createEvidenceRun(settings: EvidenceSettings, { judgement = {}, noun, bodyChecker }: EvidenceRunOptions = {}): EvidenceRun {
  const intake = new RecordIntake(rulesWithContract(settings, judgement), {
    schema: executionRecordSchema,
    ...(noun === undefined ? {} : { noun }),
  });
  const checkBodies =
    bodyChecker === undefined || judgement.contract === undefined
      ? undefined
      : keptBodyCheck(bodyChecker, judgement.contract.operations, (endpoint) => intake.labelFor(endpoint, true));
  let spans: readonly SampledCall[] | undefined;
  let released = false;
  const usable = (): RecordIntake => {
    if (released) throw new Error('the evidence run was released: nothing can be taken or asked of it');
    return intake;
  };
  const excerptBytes = settings.failureExcerptBytes ?? 0;
  // A failed call's excerpt, from the response body its reader kept: only for a status of 400 or above (the report shows it only if the call failed).
  const excerpter = excerptBytes <= 0 ? undefined : createFailureExcerpter(excerptBytes, settings.redactKeys);
  const excerptOf =
    excerpter === undefined
      ? undefined
      : (record: unknown, kept: RecordedBodies): string | undefined =>
          isExecutionRecord(record) && record.statusCode !== undefined && record.statusCode >= 400 && kept.response !== undefined
            ? excerpter(Buffer.from(textOf(kept.response)))
            : undefined;
  return {
    startInput(name) {
      intake.inputName = name;
    },
    take(record, locate, origin) {
      usable().take(record, locate, origin);
    },
    takeBatch(batch) {
      usable();
      const { bodies } = batch;
      if (bodies === undefined || (checkBodies === undefined && excerptOf === undefined)) {
        intake.takeBatch(batch);
        return;
      }
      const origin = batch.derivedEndpoints === true ? { derivedFromUrl: true } : undefined;
      batch.records.forEach((record, index) => {
        const kept = bodies[index];
        const checked = kept === undefined ? undefined : checkBodies?.(record, kept);
        const taken = checked === undefined || Object.keys(checked).length === 0 ? record : { ...(record as object), ...checked };
        // The excerpt is worked out only if the call is kept among the failed calls the report lists.
        const excerpt = kept === undefined || excerptOf === undefined ? undefined : () => excerptOf(record, kept);
        intake.take(taken, () => batch.location(index), excerpt === undefined ? origin : { ...origin, excerptOf: excerpt });
      });
    },
    takeInvalid(issue) {
      intake.validation.addInvalidRecord(issue);
    },
    labelOf(endpoint) {
      return intake.labelOf(endpoint);
    },
    absorb(part) {
      usable();
      if (part.summary instanceof ExecutionAccumulator) intake.accumulator.mergeTaking(part.summary);
      else intake.accumulator.merge(part.summary);
      intake.validation.absorb(part);
      if (intake.accumulator.endpointCount() > MAX_DISTINCT_ENDPOINTS) throw tooManyEndpoints();
    },
    finish(facts = {}) {
      usable().validation.throwIfInvalid();
      // Templates learned from the whole run's labels rename endpoints everywhere the report names them.
      const learned = intake.learnedLabels();
      const renamed = (endpoint: string): string => learned.get(endpoint) ?? endpoint;
      intake.accumulator.relabel(learned);
      spans = intake.accumulator.spans?.result();
      const { unrecordedCalls, failedTests: failed, ...given } = facts;
      // Each failed test beside the endpoints its calls reached, found in the tallies under their final labels.
      const found = intake.accumulator.endpointsOfTests(new Set((failed ?? []).map(testKeyOf)));
      const keepTraces = settings.traceContext !== false;
      const failedTests =
        failed === undefined
          ? undefined
          : failedTestsOf(
              keepTraces ? failed : failed.map(withoutTraceId),
              (key) => found.get(key) ?? [],
              (key) => intake.traceOfTest(key),
            );
      const context: ReportContext = {
        environment: settings.environment,
        slowResponseThresholdMs: settings.slowResponseThresholdMs,
        ...expectedStatusesOf(settings),
        ...given,
        ...(unrecordedCalls === undefined ? {} : { unrecordedCalls }),
        ...(failedTests === undefined ? {} : { failedTests }),
        ...(unrecordedCalls === undefined || learned.size === 0
          ? {}
          : {
              unrecordedCalls: {
                ...unrecordedCalls,
                endpoints: [...new Set(unrecordedCalls.endpoints.map(renamed))].sort(compareCodeUnits),
              },
            }),
      };
      // The intake keeps no trace id of a record then; a part may bring some (a report merged): left out too.
      // Each endpoint's samples are let go once described: a run is finished once.
      const described = intake.accumulator.result({ letGoOfSamples: true });
      const summary = keepTraces ? described : withoutTraceIds(described);
      // A Playwright run says which failing endpoints only ever failed in attempts that a retry made good.
      const flaky = facts.tests === undefined ? undefined : summary.endpoints.filter(isFlaky).map(({ endpoint }) => endpoint);
      const report = buildReport(summary, flaky === undefined ? context : { ...context, flakyEndpoints: flaky });
      return judgeReport(report, judgement);
    },
    spans() {
      return spans;
    },
    endpointsOfTests(tests) {
      const found = usable().accumulator.endpointsOfTests(new Set(tests.map(testKeyOf)));
      return tests.map((test) => (found.get(testKeyOf(test)) ?? []).map(({ endpoint }) => endpoint).sort(compareCodeUnits));
    },
    release() {
      released = true;
      intake.release();
    },
  };
}

/** The expected statuses a report states, canonical, so that two reports can tell whether their failures mean the same. */
function expectedStatusesOf({
  expectedStatuses,
  expectedStatusesByEndpoint,
}: EvidenceRules): Pick<ReportContext, 'expectedStatuses' | 'expectedStatusesByEndpoint'> {
  const byEndpoint =
    expectedStatusesByEndpoint === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(expectedStatusesByEndpoint)
            .map(([label, list]) => [normaliseEndpoint(label), statusSet(list).text] as const)
            .sort(([a], [b]) => compareCodeUnits(a, b)),
        );
  return {
    expectedStatuses: statusSet(expectedStatuses ?? DEFAULT_EXPECTED_STATUSES).text,
    ...(byEndpoint === undefined ? {} : { expectedStatusesByEndpoint: byEndpoint }),
  };
}

/** The statistics with no trace or span id on any failed or slowest execution: what a run whose traceContext is false reports. */
function withoutTraceIds(summary: ExecutionStatistics): ExecutionStatistics {
  return {
    ...summary,
    endpoints: summary.endpoints.map((endpoint) =>
      endpoint.failedExecutions === undefined ? endpoint : { ...endpoint, failedExecutions: endpoint.failedExecutions.map(withoutTraceId) },
    ),
    slowestExecutions: summary.slowestExecutions.map(withoutTraceId),
  };
}

function withoutTraceId<Execution extends { readonly traceId?: string | undefined; readonly spanId?: string | undefined }>(
  execution: Execution,
): Execution {
  if (execution.traceId === undefined && execution.spanId === undefined) return execution;
  const { traceId, spanId, ...rest } = execution;
  return rest as Execution;
}

/** An endpoint whose every failed execution came from an attempt that a retry made good. */
function isFlaky({ failedExecutionCount, flakyFailedExecutionCount }: EndpointStatistics): boolean {
  return failedExecutionCount > 0 && flakyFailedExecutionCount === failedExecutionCount;
}

/**
 * The body check of a record whose bodies its reader kept (the response's,
 * by its status and media type, and the request's), and the conditions of
 * its operation the call met, read from its URL, headers and bodies: what
 * the record is taken with. Nothing for a record that is invalid
 * (validation names it), a call with no response, or an endpoint that
 * matches no operation.
 */
function keptBodyCheck(
  checker: BodyChecker,
  operations: readonly ContractOperation[],
  labelOf: (endpoint: string) => string,
): (record: unknown, bodies: RecordedBodies) => { readonly bodyCheck?: BodyCheck; readonly conditions?: ConditionsRecord } {
  const byLabel = new Map<string, ContractOperation>();
  for (const operation of operations) if (!byLabel.has(operation.label)) byLabel.set(operation.label, operation);
  return (record, bodies) => {
    if (!isExecutionRecord(record) || record.statusCode === undefined) return {};
    const operation = byLabel.get(labelOf(record.endpoint));
    if (operation === undefined) return {};
    const url = urlOf(bodies.url);
    const { bodyCheck, conditions } = checker.examine(operation, {
      path: url?.pathname ?? record.endpoint.slice(record.endpoint.indexOf(' ') + 1),
      query: url === undefined ? [] : [...url.searchParams],
      headers: bodies.headers ?? [],
      formFields: bodies.formFields,
      statusCode: record.statusCode,
      responseContentType: bodies.response?.mimeType,
      responseBody: bodies.response === undefined ? undefined : { text: textOf(bodies.response) },
      requestContentType: bodies.request?.mimeType,
      requestBody: bodies.request === undefined ? undefined : { text: bodies.request.text },
    });
    return {
      ...(bodyCheck === undefined ? {} : { bodyCheck }),
      ...(conditions === undefined ? {} : { conditions: conditionsRecordOf(conditions) }),
    };
  };
}

function urlOf(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

// A HAR body as its bytes: base64 when the recorder says so (binary bodies), else the text itself.
function textOf({ text, encoding }: RecordedBody): string | Uint8Array {
  return encoding?.toLowerCase() === 'base64' ? Buffer.from(text, 'base64') : text;
}
