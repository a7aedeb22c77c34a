import { ReportFormatError } from '../src/errors.js';
import { mergeReports } from '../src/run/mergeReports.js';
import { qualityReportSchema, type QualityReport } from '../src/report/qualityReport.js';
import { HISTOGRAM_RELATIVE_ACCURACY } from '../src/summary/latencyHistogram.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { thrownBy } from './support/failures.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { expect, test } from './support/test.js';

// 200 endpoints, each with its own latency distribution (log-normal, medians
// from 2 ms to 2 s, some with a slow tail) and its own number of calls (1 to
// 400), every record sent to one of 4 reports at random: the merged report
// against the report of all records at once.

interface Execution {
  readonly endpoint: string;
  readonly statusCode: number;
  readonly responseTimeMs: number;
}

function generatedExecutions(seed: number): Execution[] {
  const random = mulberry32(seed);
  const executions: Execution[] = [];
  for (let index = 0; index < 200; index++) {
    const endpoint = `${index % 3 === 0 ? 'POST' : 'GET'} /service-${index}/items`;
    const median = 2 * 1000 ** (index / 199);
    const calls = 1 + Math.floor(random() * 400);
    const tail = index % 7 === 0;
    for (let call = 0; call < calls; call++) {
      const slowTail = tail && random() < 0.05 ? 8 : 1;
      const responseTimeMs = Math.round(median * slowTail * Math.exp(0.4 * normal(random)) * 1000) / 1000;
      executions.push({
        endpoint,
        statusCode: random() < 0.03 ? 503 : random() < 0.05 ? 404 : 200,
        responseTimeMs: index === 5 && call === 0 ? 0 : responseTimeMs,
      });
    }
  }
  return executions;
}

function reportOf(
  executions: readonly Execution[],
  context: { environment?: string; slowResponseThresholdMs?: number } = {},
  expectedStatuses?: string,
): QualityReport {
  return buildQualityReport(
    { executions },
    { environment: context.environment ?? 'ci', slowResponseThresholdMs: context.slowResponseThresholdMs ?? 500 },
    expectedStatuses === undefined ? {} : { expectedStatuses },
  ).report;
}

function splitInFour(executions: readonly Execution[], seed: number): Execution[][] {
  const random = mulberry32(seed);
  const parts: Execution[][] = [[], [], [], []];
  for (const execution of executions) parts[Math.floor(random() * 4)]!.push(execution);
  return parts;
}

const PERCENTILES = ['p50', 'p90', 'p95', 'p99'] as const;

for (const seed of [1, 2, 3]) {
  test(`200 endpoints over 4 reports (seed ${seed}): every merged percentile is within ${HISTOGRAM_RELATIVE_ACCURACY * 100}% \
of the exact one from all records`, () => {
    const executions = generatedExecutions(seed);
    const exact = reportOf(executions);
    const merged = mergeReports(
      splitInFour(executions, seed + 100).map((part, index) => ({ report: reportOf(part), path: `part-${index}.json` })),
    );
    expect(merged.endpoints.map((entry) => entry.endpoint)).toEqual(exact.endpoints.map((entry) => entry.endpoint));
    let compared = 0;
    for (const [index, entry] of merged.endpoints.entries()) {
      const truth = exact.endpoints[index]!;
      for (const percentile of PERCENTILES) {
        const value = entry.responseTimeMs[percentile]!;
        const expected = truth.responseTimeMs[percentile]!;
        // The bound, and the rounding to the microsecond every statistic gets.
        expect(Math.abs(value - expected), `${entry.endpoint} ${percentile}: ${value} against ${expected}`).toBeLessThanOrEqual(
          HISTOGRAM_RELATIVE_ACCURACY * expected + 0.0005,
        );
        compared++;
      }
      expect(entry.responseTimeMs).toMatchObject({
        min: truth.responseTimeMs.min,
        max: truth.responseTimeMs.max,
        source: 'histogram',
        relativeError: HISTOGRAM_RELATIVE_ACCURACY,
      });
      expect(Math.abs(entry.responseTimeMs.mean! - truth.responseTimeMs.mean!)).toBeLessThanOrEqual(0.001 + 1e-9);
      expect(entry.latencyHistogram).toEqual(truth.latencyHistogram);
    }
    expect(compared).toBe(800);
    for (const percentile of PERCENTILES) {
      expect(Math.abs(merged.responseTimeMs[percentile]! - exact.responseTimeMs[percentile]!)).toBeLessThanOrEqual(
        HISTOGRAM_RELATIVE_ACCURACY * exact.responseTimeMs[percentile]! + 0.0005,
      );
    }
  });
}

test('counts, status codes, failures, slow and failing endpoints add exactly', () => {
  const executions = generatedExecutions(4);
  const exact = reportOf(executions);
  const merged = mergeReports(splitInFour(executions, 9).map((part, index) => ({ report: reportOf(part), path: `part-${index}.json` })));
  const countsOf = (report: QualityReport) => ({
    executionCount: report.executionCount,
    failedExecutionCount: report.failedExecutionCount,
    slowExecutionCount: report.slowExecutionCount,
    failureCountByEndpoint: report.failureCountByEndpoint,
    slowEndpoints: report.slowEndpoints,
    noResponseCount: report.noResponseCount,
    expectedErrorCount: report.expectedErrorCount,
    statusCodes: report.statusCodes,
    endpoints: report.endpoints.map(({ endpoint, executionCount, failedExecutionCount, slowExecutionCount, statusCodes }) => ({
      endpoint,
      executionCount,
      failedExecutionCount,
      slowExecutionCount,
      statusCodes,
    })),
  });
  expect(countsOf(merged)).toStrictEqual(countsOf(exact));
  expect(merged.slowestExecutions.map((execution) => execution.responseTimeMs)).toEqual(
    exact.slowestExecutions.map((execution) => execution.responseTimeMs),
  );
});

test('a merged report is a report: it holds the published schema, and merges again with the same bound', () => {
  const executions = generatedExecutions(5);
  const parts = splitInFour(executions, 11).map((part, index) => ({ report: reportOf(part), path: `part-${index}.json` }));
  const merged = mergeReports(parts);
  expect(qualityReportSchema.safeParse(merged).success).toBe(true);
  const twice = mergeReports([
    { report: mergeReports(parts.slice(0, 2)), path: 'a.json' },
    { report: mergeReports(parts.slice(2)), path: 'b.json' },
  ]);
  // The mean is weighted by counts from means rounded to the microsecond: merged twice, it may move by that rounding.
  const withoutMeans = (report: QualityReport) => ({
    ...report,
    responseTimeMs: { ...report.responseTimeMs, mean: null },
    endpoints: report.endpoints.map((entry) => ({ ...entry, responseTimeMs: { ...entry.responseTimeMs, mean: null } })),
  });
  expect(withoutMeans(twice)).toStrictEqual(withoutMeans(merged));
  expect(Math.abs(twice.responseTimeMs.mean! - merged.responseTimeMs.mean!)).toBeLessThanOrEqual(0.001);
});

test('reports made from records say their statistics are exact', () => {
  const report = reportOf(generatedExecutions(6).slice(0, 50));
  expect(report.responseTimeMs.source).toBe('exact');
  expect(report.responseTimeMs.relativeError).toBeUndefined();
  expect(report.endpoints.every((entry) => entry.responseTimeMs.source === 'exact')).toBe(true);
});

test.describe('reports whose numbers mean different things are refused, the difference named', () => {
  const executions = generatedExecutions(7).slice(0, 200);
  const cases = [
    {
      name: 'the slow threshold',
      other: reportOf(executions, { slowResponseThresholdMs: 750 }),
      message:
        'the report "b.json" has slowResponseThresholdMs 750, where "a.json" has 500: reports whose numbers mean different things cannot be merged',
    },
    {
      name: 'the expected statuses',
      other: reportOf(executions, {}, '100-399,404'),
      message:
        'the report "b.json" has expectedStatuses "100-399,404", where "a.json" has "100-399": reports whose numbers mean different things cannot be merged',
    },
    {
      name: 'the environment',
      other: reportOf(executions, { environment: 'staging' }),
      message:
        'the report "b.json" has environment "staging", where "a.json" has "ci": reports whose numbers mean different things cannot be merged',
    },
  ];
  for (const { name, other, message } of cases) {
    test(name, () => {
      const error = thrownBy(() =>
        mergeReports([
          { report: reportOf(executions), path: 'a.json' },
          { report: other, path: 'b.json' },
        ]),
      );
      expect(error).toBeInstanceOf(ReportFormatError);
      expect((error as Error).message).toBe(message);
    });
  }
});

test('a merged endpoint has its keys in the order of a report made from records, however many reports it came from', () => {
  const executions = generatedExecutions(8).slice(0, 300);
  const exact = reportOf(executions);
  const merged = mergeReports(splitInFour(executions, 3).map((part, index) => ({ report: reportOf(part), path: `part-${index}.json` })));
  expect(Object.keys(merged)).toEqual(Object.keys(exact));
  for (const [index, entry] of merged.endpoints.entries()) {
    expect(Object.keys(entry).filter((key) => key !== 'relativeError')).toEqual(Object.keys(exact.endpoints[index]!));
    expect(Object.keys(entry.responseTimeMs)).toEqual([...Object.keys(exact.endpoints[index]!.responseTimeMs), 'relativeError']);
  }
});

test('failed calls read from files are kept by file and place, whatever the order of the reports merged', () => {
  const failing = () =>
    buildQualityReport(
      { executions: Array.from({ length: 4 }, (_, index) => ({ endpoint: 'GET /orders', statusCode: 500, responseTimeMs: 10 + index })) },
      { environment: 'ci', slowResponseThresholdMs: 500 },
    ).report;
  const located = (file: string) => {
    const report = failing();
    return {
      ...report,
      endpoints: report.endpoints.map((entry) => ({
        ...entry,
        failedExecutions: entry.failedExecutions?.map((execution, index) => ({
          ...execution,
          location: `executions[${index}] of ${file}`,
        })),
      })),
    };
  };
  const forward = mergeReports([
    { report: located('fa.json'), path: 'fa.json' },
    { report: located('fb.json'), path: 'fb.json' },
  ]);
  const backward = mergeReports([
    { report: located('fb.json'), path: 'fb.json' },
    { report: located('fa.json'), path: 'fa.json' },
  ]);
  expect(backward.endpoints[0]?.failedExecutions).toEqual(forward.endpoints[0]?.failedExecutions);
  expect(forward.endpoints[0]?.failedExecutions?.map((execution) => execution.location)).toEqual([
    'executions[0] of fa.json',
    'executions[1] of fa.json',
    'executions[2] of fa.json',
    'executions[3] of fa.json',
    'executions[0] of fb.json',
  ]);
});

const ALWAYS_DOES = 'a report quality-evidence writes always does; it cannot be merged';

test.describe(`a report whose parts disagree is refused (65), the report, the endpoint and the place named, never merged into \
numbers that mean nothing`, () => {
  type Edit = (report: { -readonly [Key in keyof QualityReport]: QualityReport[Key] }) => void;
  const cases: { name: string; edit: Edit; where: string }[] = [
    {
      name: 'status counts that do not add up to the executions',
      edit: (report) =>
        (report.endpoints[0]!.statusCodes = { ...report.endpoints[0]!.statusCodes, '200': report.endpoints[0]!.statusCodes['200']! + 1 }),
      where:
        'endpoints[0].statusCodes, endpoint "GET /orders": count 4 executions with a status and noResponseCount 0 without, where executionCount is 3',
    },
    {
      name: "a status's times counted other than its statusCodes count it",
      edit: (report) => (report.endpoints[0]!.latencyByStatus![0]!.executionCount = 2),
      where:
        'endpoints[0].latencyByStatus[0].executionCount, endpoint "GET /orders": is 2, where statusCodes counts 3 executions of status 200',
    },
    {
      name: "the run's counts that are not its endpoints' added up",
      edit: (report) => (report.failedExecutionCount = 7),
      where: "failedExecutionCount: is 7, where the endpoints' add up to 1",
    },
    {
      name: 'a time past a day, as no record has',
      edit: (report) => (report.endpoints[0]!.responseTimeMs = { ...report.endpoints[0]!.responseTimeMs, max: 1e300 }),
      where:
        'endpoints[0].responseTimeMs, endpoint "GET /orders": has min 10 and max 1e+300: ' +
        "each must be a time from 0 to 86400000 ms (a day, as a record's), min first",
    },
    {
      name: 'a histogram that does not start where the fastest time is',
      edit: (report) => (report.endpoints[0]!.responseTimeMs = { ...report.endpoints[0]!.responseTimeMs, min: 1 }),
      where: 'endpoints[0].latencyHistogram, endpoint "GET /orders": does not start where min (1 ms) is',
    },
    {
      name: 'expected statuses that are no status list (not a crash)',
      edit: (report) => (report.expectedStatuses = 'two hundred'),
      where: 'expectedStatuses: is not a list of status codes in the canonical form a report gives ("100-399,404")',
    },
    {
      name: 'an expectedStatusesByEndpoint key that is no endpoint label (not a crash)',
      edit: (report) => (report.expectedStatusesByEndpoint = { nonsense: '200' }),
      where: 'expectedStatusesByEndpoint.nonsense: is not an endpoint label as a report gives it',
    },
    {
      name: 'an endpoint listed twice',
      edit: (report) => report.endpoints.push(report.endpoints[0]!),
      where: 'endpoints[2].endpoint, endpoint "GET /orders": names an endpoint listed before: a report lists each once',
    },
  ];
  for (const { name, edit, where } of cases) {
    test(name, () => {
      const executions = [10, 20, 30].map((responseTimeMs) => ({ endpoint: 'GET /orders', statusCode: 200, responseTimeMs }));
      executions.push({ endpoint: 'POST /orders', statusCode: 500, responseTimeMs: 5 });
      const report = structuredClone(reportOf(executions));
      edit(report);

      const error = thrownBy(() =>
        mergeReports([
          { report: reportOf(executions), path: 'a.json' },
          { report, path: 'b.json' },
        ]),
      );

      expect(error).toBeInstanceOf(ReportFormatError);
      expect((error as Error).message).toBe(`the report "b.json" does not add up (at ${where}): ${ALWAYS_DOES}`);
    });
  }
});

test("a merged mean is the exact sum of the reports' times over their count, however many executions: never null while the times are finite", () => {
  const report = structuredClone(reportOf([{ endpoint: 'GET /day', statusCode: 200, responseTimeMs: 86_400_000 }]));
  // Half a trillion calls of a day each, twice: a trillion, the most a report may count.
  const many = 5e11;
  const entry = report.endpoints[0]!;
  const scaled = { ...entry.latencyHistogram, bins: entry.latencyHistogram.bins.map(([bucket]) => [bucket, many] as [number, number]) };
  Object.assign(report, { executionCount: many, statusCodes: { '200': many }, slowExecutionCount: many });
  const latencyByStatus = [{ statusCode: 200, executionCount: many, totalMs: many * 86_400_000, latencyHistogram: scaled }];
  report.endpoints[0] = {
    ...entry,
    executionCount: many,
    slowExecutionCount: many,
    statusCodes: { '200': many },
    latencyHistogram: scaled,
    latencyByStatus,
  };

  const merged = mergeReports([
    { report, path: 'a.json' },
    { report, path: 'b.json' },
  ]);

  const [endpoint] = merged.endpoints;
  expect([
    merged.executionCount,
    merged.responseTimeMs.mean,
    endpoint?.responseTimeMs.mean,
    endpoint?.latencyByStatus?.[0]?.totalMs,
  ]).toEqual([1e12, 86_400_000, 86_400_000, 1e12 * 86_400_000]);
});
