import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from './support/test.js';
import {
  buildReport,
  compareWithBaseline,
  formatReport,
  InputSyntaxError,
  parseReport,
  renderHtml,
  renderMarkdown,
  ReportFormatError,
  summariseExecutions,
  type QualityReport,
} from '../src/index.js';
import { changePercent } from '../src/evaluation/baseline.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { NEW_STATUS_LIMIT } from '../src/report/verdictSchemas.js';
import { comparisonHeadline, tooFewToJudge } from '../src/report/renderers/presentation.js';
import { thrownBy } from './support/failures.js';

// The comparison of a run with a baseline report (main's artifact).

function reportOf(environment: string, records: readonly [string, number, number][]): QualityReport {
  return buildReport(
    summariseExecutions(
      records.map(([endpoint, statusCode, responseTimeMs]) => ({ endpoint, statusCode, responseTimeMs })),
      100,
    ),
    { environment, slowResponseThresholdMs: 100 },
  );
}

const main = reportOf('main', [
  ['GET /a', 500, 10],
  ['GET /b', 200, 10],
  ['GET /c', 200, 200],
  ['GET /gone', 200, 10],
  ['GET /d', 200, 50],
]);
const branch = reportOf('branch', [
  ['GET /a', 200, 10],
  ['GET /b', 503, 10],
  ['GET /c', 200, 300],
  ['GET /d', 200, 500],
  ['GET /new', 404, 10],
]);
const comparison = compareWithBaseline(branch, main);

test('the totals as before and after pairs', () => {
  expect([comparison.environment, comparison.executionCount, comparison.failedExecutionCount, comparison.slowExecutionCount]).toStrictEqual(
    [
      { before: 'main', after: 'branch' },
      { before: 5, after: 5 },
      { before: 1, after: 2 },
      { before: 1, after: 2 },
    ],
  );
});

test('server errors before and after, apart from the 404 of a client; unknown (null) before for a baseline of a version that did not count them', () => {
  expect(comparison.serverErrorCount).toStrictEqual({ before: 1, after: 1 });
  const { serverErrorCount: _counted, ...older } = main;
  expect(compareWithBaseline(branch, older).serverErrorCount).toStrictEqual({ before: null, after: 1 });
});

test('the endpoints too few to judge are those the headline counts so: a newly failing one with a single call is that change, not one of them', () => {
  const headline = comparisonHeadline(comparison);
  const tooFew = tooFewToJudge(comparison, 10);
  expect(headline).toContain(`${tooFew.count} too few samples to judge`);
  expect(tooFew.shown.some((name) => name.startsWith('GET /b '))).toBe(false);
});

test('each list names its endpoints', () => {
  expect({
    newlyFailingEndpoints: comparison.newlyFailingEndpoints,
    recoveredEndpoints: comparison.recoveredEndpoints,
    newlySlowEndpoints: comparison.newlySlowEndpoints,
    newEndpoints: comparison.newEndpoints,
    missingEndpoints: comparison.missingEndpoints,
  }).toStrictEqual({
    newlyFailingEndpoints: ['GET /b', 'GET /new'],
    recoveredEndpoints: ['GET /a'],
    newlySlowEndpoints: ['GET /d'],
    newEndpoints: ['GET /new'],
    missingEndpoints: ['GET /gone'],
  });
});

test('each endpoint of the run gets its p95 change in percent, its counts and failure rates before and after, and a latency verdict with its numbers', () => {
  expect(comparison.endpoints.find((entry) => entry.endpoint === 'GET /c')).toStrictEqual({
    endpoint: 'GET /c',
    executionCount: { before: 1, after: 1 },
    p95: { before: 200, after: 300, changePercent: 50 },
    failedExecutionCount: { before: 0, after: 0 },
    failureRate: { before: 0, after: 0 },
    latencyVerdict: 'tooFewSamples',
    latencyTest: {
      method: 'mannWhitneyU',
      significanceLevel: 0.01,
      nBefore: 1,
      nAfter: 1,
      p50ChangePercent: 50,
      p95ChangePercent: 50,
      pValue: null,
      runShiftPercent: 0,
    },
    newStatuses: [],
    newStatusCount: 0,
  });
  expect(comparison.endpoints.find((entry) => entry.endpoint === 'GET /new')).toStrictEqual({
    endpoint: 'GET /new',
    executionCount: { before: null, after: 1 },
    p95: { before: null, after: 10, changePercent: null },
    failedExecutionCount: { before: null, after: 1 },
    failureRate: { before: null, after: 1 },
    latencyVerdict: 'tooFewSamples',
    latencyTest: {
      method: 'mannWhitneyU',
      significanceLevel: 0.01,
      nBefore: 0,
      nAfter: 1,
      p50ChangePercent: null,
      p95ChangePercent: null,
      pValue: null,
      runShiftPercent: 0,
    },
  });
});

test.describe('latency verdicts', () => {
  const timesOf = (environment: string, times: readonly number[]) =>
    reportOf(
      environment,
      times.map((time) => ['GET /orders', 200, time]),
    );
  const spread = (scale: number, count: number) =>
    Array.from({ length: count }, (_, index) => Math.round(scale * (100 + ((index * 37) % 50))));

  test('the same times in both runs: no change, p-value 1', () => {
    const entry = compareWithBaseline(timesOf('b', spread(1, 30)), timesOf('a', spread(1, 30))).endpoints[0]!;
    expect([entry.latencyVerdict, entry.latencyTest.pValue]).toStrictEqual(['noChange', 1]);
  });

  test('every time 30% slower on 30 and 30 samples: slower; 30% faster: faster', () => {
    const base = timesOf('a', spread(1, 30));
    expect(compareWithBaseline(timesOf('b', spread(1.3, 30)), base).endpoints[0]!.latencyVerdict).toBe('slower');
    expect(compareWithBaseline(timesOf('b', spread(0.7, 30)), base).endpoints[0]!.latencyVerdict).toBe('faster');
  });

  test('5 and 5 samples are too few, however far apart: no outcome could reach 1%', () => {
    expect(compareWithBaseline(timesOf('b', spread(10, 5)), timesOf('a', spread(1, 5))).endpoints[0]!.latencyVerdict).toBe('tooFewSamples');
  });

  test("a change within the histogram's resolution (1%) is never judged real, however many samples", () => {
    const entry = compareWithBaseline(timesOf('b', spread(1.01, 2000)), timesOf('a', spread(1, 2000))).endpoints[0]!;
    expect(entry.latencyVerdict).toBe('noChange');
  });

  test('the level is a setting: at 0.5 a change at p = 0.03 is real, at the default 0.01 it is not', () => {
    const before = timesOf('a', spread(1, 12));
    const after = timesOf('b', spread(1.12, 12));
    const strict = compareWithBaseline(after, before).endpoints[0]!;
    const loose = compareWithBaseline(after, before, { significanceLevel: 0.5 }).endpoints[0]!;
    expect([strict.latencyVerdict, loose.latencyVerdict, loose.latencyTest.significanceLevel]).toStrictEqual(['noChange', 'slower', 0.5]);
  });

  test('a baseline written before histograms has too few samples to judge, for every endpoint', () => {
    const base = timesOf('a', spread(1, 30));
    const older = { ...base, endpoints: base.endpoints.map(({ latencyHistogram: _, ...entry }) => entry) };
    expect(compareWithBaseline(timesOf('b', spread(2, 30)), older).endpoints[0]!.latencyVerdict).toBe('tooFewSamples');
  });

  test('the counts by verdict, and the slower endpoints by name', () => {
    const before = reportOf('a', [
      ...spread(1, 30).map((time): [string, number, number] => ['GET /x', 200, time]),
      ...spread(1, 30).map((time): [string, number, number] => ['GET /y', 200, time]),
      ['GET /z', 200, 5],
    ]);
    const after = reportOf('b', [
      ...spread(2, 30).map((time): [string, number, number] => ['GET /x', 200, time]),
      ...spread(1, 30).map((time): [string, number, number] => ['GET /y', 200, time]),
      ['GET /z', 200, 5],
    ]);
    const compared = compareWithBaseline(after, before);
    expect([compared.latencyVerdictCounts, compared.slowerEndpoints]).toStrictEqual([
      { slower: 1, faster: 0, noChange: 1, tooFewSamples: 1 },
      ['GET /x'],
    ]);
  });
});

test.describe("the run's own shift", () => {
  // Eight endpoints of 30 calls each; the times of each spread over 100 to 149 ms, scaled.
  const runOf = (environment: string, scaleOf: (endpoint: number) => number) =>
    reportOf(
      environment,
      Array.from({ length: 8 }, (_, endpoint) =>
        Array.from({ length: 30 }, (_, index): [string, number, number] => [
          `GET /e${endpoint}`,
          200,
          Math.round(scaleOf(endpoint) * (100 + ((index * 37) % 50))),
        ]),
      ).flat(),
    );
  const base = runOf('main', () => 1);

  test('every endpoint 30% slower alike is the machine or the whole service: no endpoint is marked, and the run says its shift', () => {
    const compared = compareWithBaseline(
      runOf('branch', () => 1.3),
      base,
    );
    // 13 buckets of 2%: the nearest whole number of buckets to 30%.
    expect([compared.latencyVerdictCounts, compared.runShiftPercent]).toStrictEqual([
      { slower: 0, faster: 0, noChange: 8, tooFewSamples: 0 },
      29.7,
    ]);
    expect(comparisonHeadline(compared)).toBe(
      'vs base: 8 endpoints unchanged; the whole run +29.7% alike (the machine, or the service as a whole)',
    );
  });

  test('one endpoint 60% slower among seven that did not move stands out', () => {
    const compared = compareWithBaseline(
      runOf('branch', (endpoint) => (endpoint === 3 ? 1.6 : 1)),
      base,
    );
    expect([compared.slowerEndpoints, compared.runShiftPercent]).toStrictEqual([['GET /e3'], 0]);
  });

  test('one endpoint 60% slower on a machine 30% slower stands out against the run', () => {
    const compared = compareWithBaseline(
      runOf('branch', (endpoint) => (endpoint === 3 ? 1.6 * 1.3 : 1.3)),
      base,
    );
    expect(compared.slowerEndpoints).toStrictEqual(['GET /e3']);
  });

  test('with fewer than 5 endpoints to tell it, no shift is taken out: one endpoint of a run is judged on its own', () => {
    const compared = compareWithBaseline(reportOf('b', spreadOf(1.3)), reportOf('a', spreadOf(1)));
    expect([compared.runShiftPercent, compared.slowerEndpoints]).toStrictEqual([0, ['GET /only']]);
  });
});

function spreadOf(scale: number): [string, number, number][] {
  return Array.from({ length: 30 }, (_, index) => ['GET /only', 200, Math.round(scale * (100 + ((index * 37) % 50)))]);
}

test('failures compare as rates per execution: a retry that repeats a failing call does not fail more', () => {
  const before = reportOf('a', [
    ['GET /a', 500, 10],
    ['GET /a', 200, 10],
  ]);
  const after = reportOf('b', [
    ['GET /a', 500, 10],
    ['GET /a', 200, 10],
    ['GET /a', 500, 10],
    ['GET /a', 200, 10],
  ]);
  expect(compareWithBaseline(after, before).endpoints[0]!.failureRate).toStrictEqual({ before: 0.5, after: 0.5 });
});

test('the percentage is rounded to 2 decimals; from 0 it is 0 or null', () => {
  expect([
    changePercent(300, 400),
    changePercent(400, 300),
    changePercent(0, 0),
    changePercent(0, 5),
    changePercent(null, 5),
  ]).toStrictEqual([33.33, -25, 0, null, null]);
});

test.describe('reading a baseline', () => {
  test('a report of this tool is read back as it was written', () => {
    expect(parseReport(formatReport(main), 'main.json')).toStrictEqual(main);
  });

  test('a file that is not a report of this tool is refused, naming it', () => {
    const error = thrownBy(() => parseReport('{ "stats": { "expected": 3 } }', 'results.json'));
    expect(error).toBeInstanceOf(ReportFormatError);
    expect((error as Error).message).toBe(
      'the baseline report "results.json" is not a quality-summary.json written by quality-evidence (at schemaVersion: Invalid option: expected one of 1|2)',
    );
  });

  test('a report of another schemaVersion is refused, naming the versions this version reads', () => {
    expect((thrownBy(() => parseReport('{ "schemaVersion": 3 }', 'main.json')) as Error).message).toBe(
      'the baseline report "main.json" is a report of schemaVersion 3; this version of quality-evidence reads schemaVersion 1 and 2',
    );
  });

  // GET /a answers two statuses, GET /b one.
  const mixed = reportOf('main', [
    ['GET /a', 200, 10],
    ['GET /a', 503, 20],
    ['GET /b', 200, 5],
  ]);
  type Written = { schemaVersion: number; endpoints: { latencyByStatus: Record<string, unknown>[] }[] };

  test("the file leaves out the histogram of an endpoint's sole status and keeps each of several; read back, the report is as in memory", () => {
    const text = formatReport(mixed);
    const written = JSON.parse(text) as Written;
    expect([
      written.schemaVersion,
      written.endpoints.map((entry) => entry.latencyByStatus.map((status) => 'latencyHistogram' in status)),
    ]).toStrictEqual([2, [[true, true], [false]]]);
    expect(parseReport(text, 'main.json')).toStrictEqual(mixed);
  });

  test('a report read back is written again byte for byte: its keys keep their order', () => {
    const text = formatReport(mixed);
    expect(formatReport(parseReport(text, 'main.json') as QualityReport)).toBe(text);
  });

  // Every saved report this version writes (tests/saved-reports; version-1 is
  // of schemaVersion 1, which is read as 2 and so is written otherwise): zod
  // gives an object's keys in its schema's order, so each schema lists them
  // in the order the report's writer does.
  const savedReports = readdirSync(join(import.meta.dirname, 'saved-reports'))
    .filter((name) => name !== 'version-1')
    .map((name) => join(import.meta.dirname, 'saved-reports', name, 'quality-summary.json'))
    .filter((path) => existsSync(path));
  for (const path of savedReports) {
    const name = relative(import.meta.dirname, path);
    test(`the saved report ${name}, read back, is written again byte for byte`, () => {
      const text = readFileSync(path, 'utf8');
      expect(formatReport(parseReport(text, name) as QualityReport)).toBe(text);
    });
  }

  test("a report with a browser's calls, traced, failed with excerpts and timed, read back, is written again byte for byte", () => {
    const traced = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const executions = [
      { endpoint: 'GET /a', statusCode: 500, responseTimeMs: 900, id: 'a-1', ...traced, excerpt: '{"error":"down"}', source: 'browser' },
      { endpoint: 'GET /a', statusCode: 200, responseTimeMs: 20, timingMs: { wait: 10, connect: 3 } },
      { endpoint: 'GET /b', errorCode: 'ECONNREFUSED', responseTimeMs: 700, id: 'b-1', ...traced, source: 'browser' },
    ];
    const { reportText } = buildQualityReport({ executions }, { environment: 'main', slowResponseThresholdMs: 100 });
    expect(formatReport(parseReport(reportText, 'main.json') as QualityReport)).toBe(reportText);
  });

  test("a failed call's excerpt and source are written before its test and location, whatever order the call holds them in", () => {
    const summary = summariseExecutions([{ endpoint: 'GET /a', statusCode: 500, responseTimeMs: 5 }], 100);
    // As a run's excerpt of a kept body comes: after the record's source.
    const failedExecutions = [
      { method: 'GET', path: '/a', statusCode: 500, responseTimeMs: 5, source: 'browser' as const, excerpt: '{}' },
    ].map((call) => ({ ...call, location: { kind: 'list' as const, listPath: 'executions', index: 0 } }));
    const report = buildReport(
      { ...summary, endpoints: [{ ...summary.endpoints[0]!, failedExecutions }] },
      { environment: 'main', slowResponseThresholdMs: 100 },
    );
    expect(Object.keys(report.endpoints[0]!.failedExecutions![0]!)).toStrictEqual([
      'method',
      'path',
      'statusCode',
      'responseTimeMs',
      'excerpt',
      'source',
      'location',
    ]);
  });

  test("a report of schemaVersion 1, whose sole statuses repeat their endpoint's histogram, is read as a report of this version", () => {
    const text = JSON.stringify({ ...mixed, schemaVersion: 1 }, null, 2);
    expect(text).toContain('"schemaVersion": 1');
    expect(parseReport(text, 'main.json')).toStrictEqual(mixed);
  });

  test('a report whose endpoint of several statuses leaves out a histogram is refused, naming the endpoint and the entry', () => {
    const written = JSON.parse(formatReport(mixed)) as Written;
    delete written.endpoints[0]!.latencyByStatus[1]!['latencyHistogram'];
    const error = thrownBy(() => parseReport(JSON.stringify(written), 'main.json'));
    expect(error).toBeInstanceOf(ReportFormatError);
    expect((error as Error).message).toBe(
      'the baseline report "main.json" is not a quality-summary.json written by quality-evidence (at endpoints[0].latencyByStatus[1].latencyHistogram: ' +
        'is missing: the endpoint "GET /a" has 2 statuses, and only a sole status leaves its histogram out (it is the endpoint\'s))',
    );
  });

  test('a sole status without a histogram, in a baseline whose endpoint has none either, is refused: there is none to take', () => {
    const written = JSON.parse(formatReport(mixed)) as Written & { endpoints: Record<string, unknown>[] };
    delete written.endpoints[1]!['latencyHistogram'];
    expect((thrownBy(() => parseReport(JSON.stringify(written), 'main.json')) as Error).message).toBe(
      'the baseline report "main.json" is not a quality-summary.json written by quality-evidence (at endpoints[1].latencyByStatus[0].latencyHistogram: ' +
        'is missing, and so is the latencyHistogram of the endpoint "GET /b", which its sole status would take)',
    );
  });

  test('a file that is not JSON is a syntax error naming the file', () => {
    const error = thrownBy(() => parseReport('{', 'main.json'));
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as Error).message).toContain('main.json');
  });
});

test('a baseline run whose histograms are of another relative accuracy is not tested against this run (too few samples), never read as if of 1%', () => {
  // 40 calls of 100 ms then: at 5% accuracy their bucket index is that of about 3 ms at 1%, so read as 1% every endpoint would be slower.
  const after = reportOf(
    'branch',
    Array.from({ length: 40 }, () => ['GET /a', 200, 100] as [string, number, number]),
  );
  const before = reportOf(
    'main',
    Array.from({ length: 40 }, () => ['GET /a', 200, 100] as [string, number, number]),
  );
  const latencyHistogram = { relativeAccuracy: 0.05, zeroCount: 0, bins: [[47, 40]] as [number, number][] };
  const coarse = { ...before, endpoints: before.endpoints.map((entry) => ({ ...entry, latencyHistogram })) };
  expect(compareWithBaseline(after, before).endpoints[0]?.latencyVerdict).toBe('noChange');

  const [endpoint] = compareWithBaseline(after, coarse).endpoints;

  expect([endpoint?.latencyVerdict, endpoint?.latencyTest.nBefore, endpoint?.latencyTest.pValue]).toEqual(['tooFewSamples', 0, null]);
});

test.describe('statuses new against the baseline', () => {
  test('an endpoint lists the status codes its calls got now and never in the baseline, ascending, with their count', () => {
    const before = reportOf('main', [
      ['GET /a', 200, 10],
      ['GET /a', 404, 10],
    ]);
    const after = reportOf('branch', [
      ['GET /a', 503, 10],
      ['GET /a', 200, 10],
      ['GET /a', 409, 10],
    ]);
    const [entry] = compareWithBaseline(after, before).endpoints;
    expect([entry?.newStatuses, entry?.newStatusCount]).toStrictEqual([['409', '503'], 2]);
  });

  test('an endpoint the baseline did not run has no newStatuses: it is new, and its statuses are its own', () => {
    const entry = comparison.endpoints.find((candidate) => candidate.endpoint === 'GET /new');
    expect([entry && 'newStatuses' in entry, entry && 'newStatusCount' in entry]).toStrictEqual([false, false]);
  });

  test('a baseline from the history file keeps no status codes: no endpoint has newStatuses', () => {
    const { statusCodes: _, ...older } = main.endpoints[0]!;
    const [entry] = compareWithBaseline(reportOf('branch', [['GET /a', 503, 10]]), { ...main, endpoints: [older] }).endpoints;
    expect(entry && 'newStatuses' in entry).toBe(false);
  });

  test(`newStatuses lists at most ${NEW_STATUS_LIMIT}; newStatusCount counts them all`, () => {
    const statuses = Array.from({ length: 14 }, (_, index) => 500 + index);
    const after = reportOf(
      'branch',
      statuses.map((status): [string, number, number] => ['GET /a', status, 10]),
    );
    const [entry] = compareWithBaseline(after, reportOf('main', [['GET /a', 200, 10]])).endpoints;
    expect([entry?.newStatuses, entry?.newStatusCount]).toStrictEqual([
      ['500', '501', '502', '503', '504', '505', '506', '507', '508', '509'],
      14,
    ]);
  });
});

test.describe('flakiness against the baseline', () => {
  const flaky = (report: QualityReport, flakyEndpoints: readonly string[] | undefined): QualityReport =>
    flakyEndpoints === undefined ? report : { ...report, flakyEndpoints: [...flakyEndpoints] };
  const calls: [string, number, number][] = [
    ['GET /a', 500, 10],
    ['GET /b', 500, 10],
    ['GET /c', 500, 10],
    ['GET /d', 200, 10],
  ];
  const flakinessOf = (after: readonly string[] | undefined, before: readonly string[] | undefined) =>
    Object.fromEntries(
      compareWithBaseline(flaky(reportOf('branch', calls), after), flaky(reportOf('main', calls), before)).endpoints.map((entry) => [
        entry.endpoint,
        entry.flakiness,
      ]),
    );

  test('an endpoint flaky now and not in the baseline is newlyFlaky; flaky then and not now, noLongerFlaky; in both, stillFlaky', () => {
    expect(flakinessOf(['GET /a', 'GET /c'], ['GET /b', 'GET /c'])).toStrictEqual({
      'GET /a': 'newlyFlaky',
      'GET /b': 'noLongerFlaky',
      'GET /c': 'stillFlaky',
      'GET /d': undefined,
    });
  });

  test('an endpoint flaky now that the baseline did not run is newlyFlaky', () => {
    const after = flaky(reportOf('branch', [['GET /new', 500, 10]]), ['GET /new']);
    expect(compareWithBaseline(after, flaky(reportOf('main', [['GET /a', 200, 10]]), [])).endpoints[0]?.flakiness).toBe('newlyFlaky');
  });

  test('when either report does not say which endpoints are flaky (not a Playwright run), no endpoint has a flakiness', () => {
    expect([flakinessOf(['GET /a'], undefined), flakinessOf(undefined, ['GET /a'])]).toStrictEqual([
      { 'GET /a': undefined, 'GET /b': undefined, 'GET /c': undefined, 'GET /d': undefined },
      { 'GET /a': undefined, 'GET /b': undefined, 'GET /c': undefined, 'GET /d': undefined },
    ]);
  });
});

test('a baseline report that holds a baseline section of its own is compared by its own numbers: the section is not read', () => {
  const older = reportOf('older', [['GET /b', 500, 10]]);
  const judged = { ...main, baseline: compareWithBaseline(main, older) };
  expect(compareWithBaseline(branch, judged)).toStrictEqual(comparison);
});

test.describe('the headline names what is new against the base', () => {
  type Comparison = NonNullable<QualityReport['baseline']>;
  type Entry = Comparison['endpoints'][number];
  const template = comparison.endpoints.find((entry) => entry.endpoint === 'GET /c')!;
  const entry = (endpoint: string, latencyVerdict: Entry['latencyVerdict'], extra: Partial<Entry> = {}): Entry => ({
    ...template,
    endpoint,
    latencyVerdict,
    ...extra,
  });
  const contract: NonNullable<Comparison['contract']> = {
    operationCoveragePercent: { before: 71, after: 74 },
    responseCoveragePercent: { before: 50, after: 50 },
    newlyExercisedOperations: [],
    newlyExercisedOperationCount: 0,
    noLongerExercisedOperations: [],
    noLongerExercisedOperationCount: 0,
    newUndeclaredStatuses: [{ operation: 'GET /e0', status: '502' }],
    newUndeclaredStatusCount: 1,
    schemaViolationChanges: [],
    schemaViolationChangeCount: 0,
  };
  const of = (endpoints: readonly Entry[], extra: Partial<Comparison> = {}): Comparison => ({
    ...comparison,
    endpoints: [...endpoints],
    newlyFailingEndpoints: [],
    newEndpoints: [],
    missingEndpoints: [],
    runShiftPercent: 0,
    ...extra,
  });

  test('an endpoint whose failure rate rose is failing more, as the table of changes says, not unchanged', () => {
    const rising = entry('DELETE /produtos/{_id}', 'noChange', { failureRate: { before: 14.29, after: 28.57 } });
    const endpoints = [rising, entry('GET /same', 'noChange'), entry('GET /few', 'tooFewSamples')];
    expect(comparisonHeadline(of(endpoints))).toBe('vs base: 1 endpoint failing more, 1 unchanged, 1 too few samples to judge');
  });

  test('slower and newly failing first, then the contract, then the unchanged and those too few to judge', () => {
    const endpoints = [
      ...['GET /e0', 'GET /e1'].map((endpoint) => entry(endpoint, 'slower')),
      entry('GET /e2', 'noChange'),
      ...Array.from({ length: 14 }, (_, index) => entry(`GET /same-${index}`, 'noChange')),
      ...['GET /few-0', 'GET /few-1', 'GET /few-2'].map((endpoint) => entry(endpoint, 'tooFewSamples')),
    ];
    expect(comparisonHeadline(of(endpoints, { newlyFailingEndpoints: ['GET /e2'], contract }))).toBe(
      'vs base: 2 endpoints slower, 1 newly failing, 1 new undeclared status, operations covered 71% -> 74%, 14 unchanged, 3 too few samples to judge',
    );
  });

  test('a part whose count is 0 is left out but unchanged; the first endpoint count shown names the noun', () => {
    expect(comparisonHeadline(comparison)).toBe(
      'vs base: 2 endpoints newly failing, 2 with new statuses, 1 missing, 0 unchanged, 3 too few samples to judge',
    );
  });

  test('newly flaky endpoints, operations no longer exercised and new endpoints, each in the singular for 1', () => {
    const endpoints = [entry('GET /flaky', 'noChange', { flakiness: 'newlyFlaky' }), entry('GET /fresh', 'tooFewSamples')];
    const lost = {
      ...contract,
      newUndeclaredStatusCount: 0,
      noLongerExercisedOperationCount: 1,
      operationCoveragePercent: { before: 74, after: 74 },
    };
    expect(comparisonHeadline(of(endpoints, { newEndpoints: ['GET /fresh'], contract: lost }))).toBe(
      'vs base: 1 endpoint newly flaky, 1 operation no longer exercised, 1 new, 1 unchanged',
    );
  });

  test('operation coverage is said only when it moved, with the decimals the contract section gives it', () => {
    const moved = { ...contract, newUndeclaredStatusCount: 0, operationCoveragePercent: { before: 70.59, after: 76.47 } };
    const still = { ...contract, newUndeclaredStatusCount: 0, operationCoveragePercent: { before: 76.47, after: 76.47 } };
    expect([comparisonHeadline(of([], { contract: moved })), comparisonHeadline(of([], { contract: still }))]).toStrictEqual([
      'vs base: operations covered 70.59% -> 76.47%, 0 endpoints unchanged',
      'vs base: 0 endpoints unchanged',
    ]);
  });
});

test.describe("the baseline section's lists, in the Markdown and on the page", () => {
  const contract: NonNullable<NonNullable<QualityReport['baseline']>['contract']> = {
    operationCoveragePercent: { before: 70.59, after: 76.47 },
    responseCoveragePercent: { before: 50, after: 52.63 },
    newlyExercisedOperations: ['DELETE /users/{id}'],
    newlyExercisedOperationCount: 1,
    noLongerExercisedOperations: ['POST /users'],
    noLongerExercisedOperationCount: 1,
    newUndeclaredStatuses: [{ operation: 'GET /users/{id}', status: '502' }],
    newUndeclaredStatusCount: 1,
    schemaViolationChanges: [{ operation: 'GET /users', schemaViolationCount: { before: 2, after: 5 } }],
    schemaViolationChangeCount: 1,
  };
  const judged: QualityReport = {
    ...branch,
    baseline: {
      ...comparison,
      endpoints: comparison.endpoints.map((entry) =>
        entry.endpoint === 'GET /c' ? { ...entry, flakiness: 'newlyFlaky' as const } : entry,
      ),
      contract,
    },
  };

  test('the Markdown says the contract’s coverage and each list on its line, entries apart by semicolons', () => {
    const lines = renderMarkdown(judged).split('\n');
    const from = lines.indexOf('**Contract**: operations covered 70.59% → 76.47% · responses covered 50% → 52.63%.');
    expect(lines.slice(from, from + 15).filter((line) => line !== '')).toStrictEqual([
      '**Contract**: operations covered 70.59% → 76.47% · responses covered 50% → 52.63%.',
      '**New statuses**: `GET /a` 200; `GET /b` 503.',
      '**Newly flaky**: `GET /c`.',
      '**New undeclared statuses**: `GET /users/{id}` 502.',
      '**No longer exercised**: `POST /users`.',
      '**Bodies off their schema**: `GET /users` 2 → 5.',
      '**Newly exercised**: `DELETE /users/{id}`.',
      expect.stringMatching(/^<sub>A latency change is judged/) as unknown as string,
    ]);
  });

  test('the page gives each list its field', () => {
    const html = renderHtml(judged);
    expect(html).toContain(
      '<p data-field="newStatuses"><strong>New statuses</strong>: <code>GET /a</code> 200; <code>GET /b</code> 503.</p>' +
        '<p data-field="newlyFlaky"><strong>Newly flaky</strong>: <code>GET /c</code>.</p>',
    );
    expect(html).toContain(
      '<p data-field="schemaViolationChanges"><strong>Bodies off their schema</strong>: <code>GET /users</code> 2 → 5.</p>',
    );
  });

  test('a list longer than the section shows says how many more, counting what the report itself left out', () => {
    const many = {
      ...contract,
      noLongerExercisedOperations: Array.from({ length: 100 }, (_, index) => `GET /items-${index}`),
      noLongerExercisedOperationCount: 130,
    };
    const markdown = renderMarkdown({ ...judged, baseline: { ...judged.baseline!, contract: many } });
    const line = markdown.split('\n').find((candidate) => candidate.startsWith('**No longer exercised**'));
    expect(line?.endsWith('`GET /items-49`; and 80 more.')).toBe(true);
  });
});
