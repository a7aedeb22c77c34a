import * as z from 'zod';
import { spanIdSchema, traceIdSchema } from '../records/traceContext.js';
import { ENDPOINT_TEST_LIMIT, FAILED_EXECUTION_LIMIT } from '../summary/endpointEvidence.js';
import { FAILED_TEST_ENDPOINT_LIMIT, FAILED_TEST_LIMIT } from '../summary/failedTests.js';
import { contractCoverageSchema } from './contractSchemas.js';
import { MAX_POSITIONS_LENGTH, metCountsMismatch } from '../summary/conditionTally.js';
import { MAX_CONDITION_POSITION } from '../records/conditionsRecord.js';
import {
  bodyConformanceSchema,
  latencyHistogramSchema,
  latencyStatisticsSchema,
  statusCodesSchema,
  statusLatencySchema,
} from './statisticsSchemas.js';
import { baselineComparisonSchema, budgetVerdictSchema } from './verdictSchemas.js';
import { endpointHistorySchema, reportHistorySchema } from './historySchemas.js';

import { REPORT_SCHEMA_VERSION, RUN_STATUSES } from './buildReport.js';

// The report's plain parts (its assembly, what reads a report's facts) live in buildReport.ts, which loads no schema:
// a run that only writes a report builds none of these (see docs/architecture.md, "What a run loads").
export {
  buildReport,
  isIncompleteRun,
  REPORT_SCHEMA_VERSION,
  serverErrorsOf,
  type BrowserCallCounts,
  type ReportContext,
  type UnrecordedCalls,
} from './buildReport.js';

/**
 * What `serverErrorCount` counts, run-wide and per endpoint. Optional in the
 * schema only so that reports of earlier versions still read (as baselines,
 * merge inputs): this version always writes it, and reads an older report's
 * as {@link serverErrorsOf} estimates it.
 */
/** A bit set in base64 (padded; `''` for none): JSON Schema's `contentEncoding`, which validators read as an annotation. */
const bitSet = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
  .meta({ contentEncoding: 'base64' });

const SERVER_ERROR_DESCRIPTION =
  "Failed executions answered with a status of 500 or above, or with no response at all: the server's defects, " +
  'counted apart from client errors (4xx), which are most often deliberate. A 5xx declared expected is not one. ' +
  'Absent in reports of versions before 0.2';

/** What ran in a Playwright run, written by the reporter beside the execution summary. */
export const testCountsSchema = z.object({
  total: z.int().min(0).meta({ description: 'Tests in the run, each counted once however often it was retried' }),
  passed: z.int().min(0).meta({ description: 'Tests whose outcome was as expected: passed (or, under test.fail(), failed as declared)' }),
  failed: z.int().min(0).meta({ description: 'Tests that failed or timed out on their last attempt' }),
  flaky: z.int().min(0).meta({ description: 'Tests that failed, then passed on a retry' }),
  skipped: z.int().min(0).meta({ description: 'Tests that were skipped, or did not run (an interrupted run)' }),
});

export type TestCounts = z.infer<typeof testCountsSchema>;

/** One of {@link RUN_STATUSES}. */
const runStatusSchema = z.enum(RUN_STATUSES);

export type RunStatus = z.infer<typeof runStatusSchema>;

const sourceLocationShape = {
  file: z.string().meta({ description: "The file, relative to the Playwright project's root folder" }),
  line: z.int().min(1),
  column: z.int().min(1),
};

/** A Playwright test, as the report names it. */
const testIdentityShape = {
  title: z.string().meta({ description: 'Its title path: file › describe › title' }),
  ...sourceLocationShape,
  testId: z.string().optional().meta({ description: "Playwright's test id, as its HTML report links to it" }),
};

/** Of a test's failed calls, those that got a server error or no response. */
const serverErrorCallsSchema = z.int().min(1).optional().meta({
  description: 'Only when some did: its failed calls that got a server error (a 5xx outside the expected statuses) or no response',
});

/** One test's calls of an endpoint. */
const testCallsSchema = z
  .strictObject({
    ...testIdentityShape,
    calls: z.int().min(1).meta({ description: 'Executions of the endpoint in the test, every attempt counted' }),
    failedCalls: z.int().min(0),
    serverErrorCalls: serverErrorCallsSchema,
  })
  .meta({ title: 'TestCalls' });

/** A test that failed, beside the endpoints its calls reached. */
const failedTestSchema = z
  .strictObject({
    ...testIdentityShape,
    endpoints: z
      .array(
        z.strictObject({
          endpoint: z.string(),
          calls: z.int().min(1),
          failedCalls: z.int().min(0),
          serverErrorCalls: serverErrorCallsSchema,
        }),
      )
      .max(FAILED_TEST_ENDPOINT_LIMIT)
      .meta({
        description:
          `The endpoints its calls reached, every attempt counted: those where its calls got server errors first, then failed (most failed ` +
          `calls), then most calls, then by label; at most ${FAILED_TEST_ENDPOINT_LIMIT}. Empty for a test that made no ` +
          `recorded call`,
      }),
    endpointCount: z.int().min(0).meta({ description: 'How many endpoints its calls reached, listed or not' }),
    traceId: traceIdSchema.optional().meta({
      description:
        'Only where its calls had one and traceContext is not false: the W3C trace id of its failing attempt (the last), ' +
        "that of the attempt's first failed call with one, else of its first call with one",
    }),
  })
  .meta({ title: 'FailedTest' });

/** The `source` of a call a web application made in a browser test; absent for an API client's. */
const browserSourceSchema = z.literal('browser').optional().meta({
  description:
    'Only for a call a web application made in a browser test (its fetch or XMLHttpRequest): "browser". Absent for an API client\'s call',
});

/** One source's executions of one endpoint. */
const sourceCountsSchema = z.strictObject({
  executionCount: z.int().min(0),
  failedExecutionCount: z.int().min(0),
});

/** One source's executions over the run. */
const sourceStatisticsSchema = z
  .strictObject({
    executionCount: z.int().min(0),
    failedExecutionCount: z.int().min(0),
    noResponseCount: z.int().min(0),
    slowExecutionCount: z.int().min(0),
    endpointCount: z.int().min(0).meta({ description: 'Endpoints this source called' }),
    responseTimeMs: latencyStatisticsSchema,
    latencyHistogram: latencyHistogramSchema,
  })
  .meta({ title: 'SourceStatistics' });

/** How one call ended and how long it took, as the slowest and the failed executions give it. */
const callOutcomeShape = {
  statusCode: z.int().min(100).max(599).optional().meta({ description: 'Absent when the call got no response' }),
  errorCode: z.string().optional().meta({ description: 'Only for a call that got no response' }),
  responseTimeMs: z.number().min(0),
};

/** The trace context a call was sent under, where its record gave it and the run keeps trace ids (the traceContext setting). */
const traceIdsShape = {
  traceId: traceIdSchema.optional().meta({
    description:
      "Only where the call's record gave one and traceContext is not false: the W3C trace id it was sent under, to find the " +
      "server's trace of it (traceUrlTemplate links it in the Markdown, the page and the comment)",
  }),
  spanId: spanIdSchema.optional().meta({
    description: 'Only with traceId, where the record gave one: the W3C span id of the call, the client span the server continued',
  }),
};

/** One failed call of an endpoint, with where it came from; its keys in failedExecutionEntry's order (see qualityReportSchema). */
const failedExecutionSchema = z
  .strictObject({
    method: z.string(),
    path: z.string().meta({ description: 'The path the call was recorded with, query removed' }),
    ...callOutcomeShape,
    attempt: z
      .int()
      .min(1)
      .optional()
      .meta({ description: 'Only for a call a Playwright test made: its attempt, 1-based (2 is the first retry)' }),
    id: z.string().optional().meta({ description: "The record's id, when it has one" }),
    ...traceIdsShape,
    excerpt: z.string().optional().meta({
      description:
        'Only with failureExcerptBytes set: the first bytes of the response body, values under keys that look secret replaced; never a header',
    }),
    source: browserSourceSchema,
    test: z
      .strictObject(testIdentityShape)
      .optional()
      .meta({ description: 'Only for a call a Playwright test made: the test, where it is declared' }),
    callLocation: z
      .strictObject(sourceLocationShape)
      .optional()
      .meta({ description: "Only where Playwright's step gives it: the line of the call itself" }),
    location: z.string().optional().meta({ description: 'Where the record is, as slowestExecutions gives it' }),
  })
  .meta({ title: 'FailedExecution' });

/** One endpoint's statistics; its keys in endpointEntry's order (see qualityReportSchema). */
export const endpointStatisticsSchema = z
  .strictObject({
    endpoint: z.string().meta({ description: 'The endpoint label, after route templates and grouping' }),
    executionCount: z.int().min(1),
    failedExecutionCount: z.int().min(0).meta({ description: 'Executions with a status that was not expected, or with no response' }),
    expectedErrorCount: z
      .int()
      .min(0)
      .meta({ description: 'Executions with a status of 400 or above that was expected (negative tests): not failures' }),
    slowExecutionCount: z.int().min(0),
    noResponseCount: z.int().min(0),
    serverErrorCount: z.int().min(0).optional().meta({ description: SERVER_ERROR_DESCRIPTION }),
    statusCodes: statusCodesSchema,
    responseTimeMs: latencyStatisticsSchema,
    latencyHistogram: latencyHistogramSchema,
    latencyByStatus: z
      .array(statusLatencySchema)
      .optional()
      .meta({
        description:
          "The endpoint's executions by status code, ascending, then by error code for calls with no response: " +
          'each with its count, the sum of its times and their histogram (the OpenTelemetry and Prometheus exports are ' +
          'made of them). Absent in reports of versions before 0.2',
      }),
    timeToFirstByteMs: latencyStatisticsSchema.optional().meta({
      description:
        'Only when records of this endpoint carried timing phases: the statistics of the wait phase (request sent to first byte)',
    }),
    newConnectionCount: z.int().min(0).optional().meta({
      description: 'Only when records of this endpoint carried timing phases: executions that paid a connect phase (a new connection)',
    }),
    testCount: z.int().min(1).optional().meta({
      description: 'Only in reports written by the Playwright reporter: how many tests called the endpoint, listed in tests or not',
    }),
    flakyFailedExecutionCount: z.int().min(0).optional().meta({
      description:
        'Only in reports written by the Playwright reporter: failed executions from attempts that a retry of the same test made good',
    }),
    sources: z
      .strictObject({ api: sourceCountsSchema, browser: sourceCountsSchema })
      .optional()
      .meta({
        description:
          "Only when the run has calls a browser made: this endpoint's executions and failures by source, " +
          "api (a test's API client) and browser (the application's own calls)",
      }),
    tests: z
      .array(testCallsSchema)
      .optional()
      .meta({
        description:
          'Only in reports written by the Playwright reporter: the tests that called the endpoint, most server errors ' +
          `first, then most failed calls, then most calls; at most ${ENDPOINT_TEST_LIMIT}`,
      }),
    failedExecutions: z
      .array(failedExecutionSchema)
      .max(FAILED_EXECUTION_LIMIT)
      .optional()
      .meta({
        description:
          `Only for an endpoint with failed executions: its first ${FAILED_EXECUTION_LIMIT} failed calls, server errors ` +
          `(500 or above, no response) first, then by place: a Playwright run's by test file, line, column, title and ` +
          `attempt; records read from files by file name, then position in the file (the same whatever the order of ` +
          `files, shards and threads)`,
      }),
    passingTestFailures: z
      .record(z.string(), z.int().min(1))
      .optional()
      .meta({
        description:
          'Only when tests that passed made failed calls: those calls by status code (or error code), keys ascending. ' +
          'Most often negative cases: declare them with the expected-status annotation or expectedStatusesByEndpoint',
      }),
    bodies: bodyConformanceSchema.optional().meta({
      description:
        'Only when records of this endpoint carried body checks (the recording fixture or a HAR file read with a ' +
        "contract): its bodies' conformance to the contract's schemas",
    }),
    conditionsMet: z
      .array(
        z
          .strictObject({
            fingerprint: z
              .string()
              .regex(/^[0-9a-f]{16}$/)
              .meta({
                description:
                  "The list of conditions the positions are in: its operation's, as the contract listed them (16 hexadecimal digits)",
              }),
            callCount: z.int().min(1).meta({ description: 'Calls examined against the list' }),
            met: bitSet.max(MAX_POSITIONS_LENGTH).meta({
              description:
                'Positions of the conditions met (a bound: reached exactly), as a bit set: position p is bit p % 8 ' +
                '(least significant first) of byte ⌊p / 8⌋, in base64; empty for none',
            }),
            metCounts: z
              .array(z.int().min(1))
              .max(MAX_CONDITION_POSITION + 1)
              .optional()
              .meta({
                description:
                  'The calls that met each position of met, one count per position, in ascending position order ' +
                  '(a bound reached exactly counts alike); each at most callCount. Always written by this version; absent in ' +
                  'reports of earlier versions, and in a merge of reports one of which had no counts (unknown, never guessed)',
              }),
            outside: bitSet
              .max(MAX_POSITIONS_LENGTH)
              .meta({ description: 'Positions of the bounds overstepped by a value sent and answered 4xx, a bit set alike' }),
          })
          .check((context) => {
            // Counts that do not line up with the positions would be read as another position's calls.
            const { callCount, met, metCounts } = context.value;
            const problem =
              metCountsMismatch(met, metCounts) ??
              (metCounts?.some((count) => count > callCount) === true
                ? `metCounts holds a count above callCount (${callCount}): no more calls met a position than were examined`
                : undefined);
            if (problem !== undefined) context.issues.push({ code: 'custom', message: problem, input: metCounts, path: ['metCounts'] });
          }),
      )
      .max(8)
      .optional()
      .meta({
        description:
          'Only when records of this endpoint carried the conditions they met (the recording fixture or a HAR file read with a contract): ' +
          "which of its operation's declared conditions its calls met, per list of conditions (one, unless the document changed " +
          'within the run), in fingerprint order; the contract section counts and names them. No value of a call is kept',
      }),
    history: endpointHistorySchema
      .optional()
      .meta({ description: 'Only when a history file was given (historyPath): the endpoint against its earlier runs, with its trend' }),
  })
  .meta({ title: 'EndpointStatistics' });

/** One of the slowest executions; its keys in slowExecutionEntry's order (see qualityReportSchema). */
const slowExecutionSchema = z
  .strictObject({
    endpoint: z.string(),
    ...callOutcomeShape,
    id: z.string().optional().meta({ description: "The record's id, when it has one" }),
    ...traceIdsShape,
    source: browserSourceSchema,
    location: z
      .string()
      .optional()
      .meta({
        description:
          'Where the record is: "executions[3] of a.json", "line 12 of b.ndjson", "HAR entry 40 of c.har", ' +
          'or a test and its attempt, as in test "title" (attempt 1)',
      }),
  })
  .meta({ title: 'SlowExecution' });

/**
 * `quality-summary.json`, as written by the runner and by the reporter. Each
 * object's keys are listed in the order buildReport writes them: zod gives a
 * parsed object's keys in its schema's order, so a report read back (a
 * baseline, compare's HEAD, merge's inputs) is written again byte for byte.
 */
export const qualityReportSchema = z
  .object({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    environment: z.string().meta({ description: 'Name of the target environment' }),
    slowResponseThresholdMs: z.int().min(0).meta({ description: 'Executions strictly slower than this are slow' }),
    expectedStatuses: z.string().meta({
      description:
        'The statuses that are not failures, run-wide, in canonical form (sorted, merged ranges): "100-399" unless expectedStatuses says otherwise',
    }),
    expectedStatusesByEndpoint: z.record(z.string(), z.string()).optional().meta({
      description:
        'Only when expectedStatusesByEndpoint was given: each endpoint label and its statuses in canonical form, labels in code-unit order',
    }),
    executionCount: z.int().min(0).meta({ description: 'Executions recorded, including calls that got no response' }),
    failedExecutionCount: z
      .int()
      .min(0)
      .meta({ description: 'Executions answered with a status code of 400 or above, or with no response at all' }),
    slowExecutionCount: z.int().min(0).meta({
      description: 'Executions strictly slower than slowResponseThresholdMs (for a call with no response: the time until it failed)',
    }),
    failureCountByEndpoint: z
      .record(z.string(), z.int().min(1))
      .meta({ description: 'Failed executions per endpoint; endpoints without failures do not appear' }),
    slowEndpoints: z.array(z.string()).meta({ description: 'Endpoints with at least one slow execution, each once, in code-unit order' }),
    noResponseCount: z
      .int()
      .min(0)
      .meta({ description: 'Executions that got no response (connection refused, DNS failure, timeout, reset); they count as failed too' }),
    noResponseEndpoints: z
      .array(z.string())
      .meta({ description: 'Endpoints with at least one execution that got no response, each once, in code-unit order' }),
    serverErrorCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: `${SERVER_ERROR_DESCRIPTION}; the endpoints' added up` }),
    expectedErrorCount: z.int().min(0).meta({
      description:
        'Executions with a status of 400 or above that was expected (expectedStatuses): negative tests, counted here and not as failed',
    }),
    statusCodes: statusCodesSchema,
    responseTimeMs: latencyStatisticsSchema.meta({ description: 'Statistics of every execution’s response time' }),
    endpoints: z.array(endpointStatisticsSchema).meta({ description: 'One entry per endpoint, by label in code-unit order' }),
    slowestExecutions: z
      .array(slowExecutionSchema)
      .max(5)
      .meta({ description: 'The 5 slowest executions, slowest first, ties in input order' }),
    sources: z
      .strictObject({ api: sourceStatisticsSchema, browser: sourceStatisticsSchema })
      .optional()
      .meta({
        description:
          'Only when the run has calls a browser made: the executions split by source, ' +
          "api (a test's API client, and any record that names no source) and browser (a web application's own fetch and " +
          'XMLHttpRequest calls in browser tests), so that an API suite and an end-to-end suite in one run read apart',
      }),
    skippedAssetCount: z
      .int()
      .min(0)
      .optional()
      .meta({
        description:
          'Only when a HAR file was read: entries left out that are no API call: ' +
          'page assets (documents, scripts, styles, images, fonts, media), URLs that are not http: or https: ' +
          '(data:, blob:, about:), WebSockets',
      }),
    unrecordedCallCount: z.int().min(0).optional().meta({
      description: 'Only in reports written by the Playwright reporter: API calls the tests sent that no execution record accounts for',
    }),
    unrecordedEndpoints: z.array(z.string()).optional().meta({
      description:
        'Only in reports written by the Playwright reporter: endpoints of the unrecorded calls, ids templated as :id, each once, in code-unit order',
    }),
    browserCallCount: z
      .int()
      .min(0)
      .optional()
      .meta({
        description:
          'Only in reports written by the Playwright reporter, when tests used browser contexts: ' +
          'the API calls the recording fixture saw them make; each is an execution (source "browser") or counted below as ' +
          'not measured',
      }),
    mockedCallCount: z
      .int()
      .min(0)
      .optional()
      .meta({
        description:
          "Only with browserCallCount: calls answered by the test's own page.route() or context.route() (route.fulfill): " +
          'no server answered, so they are not executions',
      }),
    cachedCallCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Only with browserCallCount: calls the browser answered from its HTTP cache: not executions' }),
    serviceWorkerCallCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Only with browserCallCount: calls a service worker answered: not executions' }),
    unfinishedCallCount: z.int().min(0).optional().meta({
      description: 'Only with browserCallCount: calls still in flight when their browser context closed (a long poll): not executions',
    }),
    tests: testCountsSchema.optional().meta({ description: 'Only in reports written by the Playwright reporter' }),
    failedTests: z
      .array(failedTestSchema)
      .max(FAILED_TEST_LIMIT)
      .optional()
      .meta({
        description:
          `Only in reports written by the Playwright reporter, when tests failed: the failed tests (those tests.failed ` +
          `counts), each beside the endpoints its calls reached; most server errors first, then most failed calls, then by file, line, column and ` +
          `title; at most ${FAILED_TEST_LIMIT} (tests.failed says how many failed in all)`,
      }),
    runStatus: runStatusSchema.optional().meta({
      description:
        'Only in reports written by the Playwright reporter: how the Playwright run ended (its FullResult status). An ' +
        'interrupted or timed-out run stopped before its tests were done: its evidence is incomplete and it never passes',
    }),
    flakyFailedExecutionCount: z.int().min(0).optional().meta({
      description:
        'Only in reports written by the Playwright reporter: failed executions from attempts that a retry of the same test made good',
    }),
    playwrightHtmlReport: z
      .string()
      .optional()
      .meta({
        description:
          "Only in reports written by the Playwright reporter when Playwright's HTML reporter runs beside it: " +
          "its index.html, relative to this report's folder, for links to each test (index.html#?testId=…)",
      }),
    passingTestFailureCount: z
      .int()
      .min(0)
      .optional()
      .meta({
        description:
          'Only in reports written by the Playwright reporter: failed executions made by attempts that passed; ' +
          'most often negative cases not declared expected (the expected-status annotation, expectedStatusesByEndpoint)',
      }),
    flakyEndpoints: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'Only in reports written by the Playwright reporter: endpoints with failed executions, every one of which came ' +
          'from an attempt of a test that later passed on a retry; in code-unit order',
      }),
    contract: contractCoverageSchema.optional().meta({
      description: 'Only when an OpenAPI document was given (openapi): how the calls cover its operations and the statuses they declare',
    }),
    history: reportHistorySchema
      .optional()
      .meta({ description: 'Only when a history file was given (historyPath): the runs the trends span, and the endpoints by trend' }),
    baseline: baselineComparisonSchema.optional().meta({ description: 'Only when a baseline report was named: the comparison with it' }),
    budgets: budgetVerdictSchema.optional().meta({ description: 'Only when budgets were given: the verdict of each budget' }),
  })
  .strict()
  .meta({ title: 'QualityReport' });

export type QualityReport = z.infer<typeof qualityReportSchema>;
