import { judgeFlakinessAcrossRuns, newlyFlakyOf, withFlakinessAcrossRuns } from '../src/evaluation/flakinessAcrossRuns.js';
import { judgeReport } from '../src/evaluation/judgeReport.js';
import { historyRunOf, runIdentityOf, type HistoryRun, type TestOfRun } from '../src/history/historyLine.js';
import { renderComment } from '../src/report/comment/renderComment.js';
import type { ComparedReport } from '../src/report/comment/commentFindings.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { renderHtml } from '../src/report/renderers/html.js';
import { renderMarkdown } from '../src/report/renderers/markdown.js';
import { compareWithBaseline } from '../src/evaluation/baseline.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { expect, test } from './support/test.js';

// Flakiness across runs in a report (docs/history.md, "In the report"): the
// earlier runs of the history and this run, the last, scored by the rule
// that scores the history's lines (tests/flakiness.spec.ts).

/** How GET /x and GET /y (steady, always passing) ended in a run: passed, failed, or failed and a retry made good. */
type Seen = 'passed' | 'failed' | 'retried';

function reportOf(seen: Seen, environment = 'ci'): QualityReport {
  const executions = [
    { endpoint: 'GET /x', statusCode: seen === 'passed' ? 200 : 500, responseTimeMs: 10 },
    { endpoint: 'GET /y', statusCode: 200, responseTimeMs: 10 },
  ];
  const { report } = buildQualityReport({ executions }, { environment, slowResponseThresholdMs: 750 });
  if (seen !== 'retried') return report;
  // What the reporter's tally gives an endpoint whose every failed call came from an attempt a retry made good.
  return { ...report, endpoints: report.endpoints.map((entry) => ({ ...entry, flakyFailedExecutionCount: entry.failedExecutionCount })) };
}

const testOf = (title: string, status: TestOfRun['status'], flaky = false): TestOfRun => ({
  file: 'x.spec.ts',
  line: 3,
  name: title,
  status,
  flaky,
});

/** An earlier run as the history holds it, of commit `c`. */
function lineOf(seen: Seen, index: number, tests?: readonly TestOfRun[], commit = 'c'): HistoryRun {
  return historyRunOf(reportOf(seen), runIdentityOf(Date.UTC(2026, 10, 1 + index), { GITHUB_SHA: commit }), tests);
}

/** This run's report judged against the earlier runs, then scored with itself the last, as publishing scores it. */
function scored(runs: readonly HistoryRun[], seen: Seen, { lastRuns = 30, tests, commit = 'c' }: ScoreOptions = {}): QualityReport {
  const report = judgeReport(reportOf(seen), { history: { runs } });
  const current = historyRunOf(report, runIdentityOf(Date.UTC(2026, 11, 1), { GITHUB_SHA: commit }), tests);
  return judgeFlakinessAcrossRuns(report, { earlier: runs, current, lastRuns });
}

interface ScoreOptions {
  readonly lastRuns?: number;
  readonly tests?: readonly TestOfRun[];
  readonly commit?: string;
}

const flakinessOf = (report: QualityReport, endpoint: string) =>
  report.endpoints.find((entry) => entry.endpoint === endpoint)?.history?.flakiness;

test('this run is the last run scored: a retried run in the history and this passing run give 1 flaky run of 4', () => {
  const report = scored([lineOf('passed', 0), lineOf('retried', 1), lineOf('passed', 2)], 'passed');
  expect(flakinessOf(report, 'GET /x')).toEqual({
    score: 0.25,
    runCount: 4,
    flakyRunCount: 1,
    retriedRunCount: 1,
    flipFlopRunCount: 0,
    failedRunCount: 1,
    state: 'flaky',
    trend: 'stable',
  });
  expect(flakinessOf(report, 'GET /y')).toMatchObject({ score: 0, runCount: 4, flakyRunCount: 0, failedRunCount: 0, state: 'steady' });
  expect(report.history?.flakiness).toEqual({
    lastRuns: 30,
    runCount: 4,
    testsScored: false,
    flakyEndpoints: ['GET /x'],
    failingEndpoints: [],
    flakyTests: [],
    flakyTestCount: 0,
  });
});

test('an endpoint flaky only in this run is flaky: a retry made good its failures now, after four passing runs', () => {
  const report = scored(
    [0, 1, 2, 3].map((index) => lineOf('passed', index)),
    'retried',
  );
  expect(flakinessOf(report, 'GET /x')).toMatchObject({ score: 0.2, runCount: 5, flakyRunCount: 1, retriedRunCount: 1, state: 'flaky' });
  expect(report.history?.flakiness?.flakyEndpoints).toEqual(['GET /x']);
});

test("a failure in the last earlier run that this run, of the same commit, passed is a flip-flop; with this run's new commit it is a fix", () => {
  const runs = [lineOf('passed', 0), lineOf('failed', 1)];
  expect(flakinessOf(scored(runs, 'passed', { commit: 'c' }), 'GET /x')).toMatchObject({
    flipFlopRunCount: 1,
    flakyRunCount: 1,
    state: 'flaky',
  });
  expect(flakinessOf(scored(runs, 'passed', { commit: 'd' }), 'GET /x')).toMatchObject({
    flipFlopRunCount: 0,
    failedRunCount: 1,
    state: 'steady',
  });
});

test('an endpoint failing from an earlier run to this one is failing, not flaky', () => {
  const report = scored([lineOf('passed', 0), lineOf('failed', 1)], 'failed', { commit: 'd' });
  expect(flakinessOf(report, 'GET /x')).toMatchObject({ failedRunCount: 2, state: 'failing' });
  expect(report.history?.flakiness).toMatchObject({ flakyEndpoints: [], failingEndpoints: ['GET /x'] });
});

test('flakinessRuns is the window, this run included: of ten earlier runs, 4 runs score the last three and this one', () => {
  const runs = Array.from({ length: 10 }, (_, index) => lineOf(index === 6 ? 'retried' : 'passed', index));
  const report = scored(runs, 'passed', { lastRuns: 4 });
  expect(report.history?.flakiness).toMatchObject({ lastRuns: 4, runCount: 4, flakyEndpoints: [] });
  expect(flakinessOf(report, 'GET /x')).toMatchObject({ runCount: 4, flakyRunCount: 0, failedRunCount: 0, state: 'steady' });
  expect(flakinessOf(scored(runs, 'passed', { lastRuns: 5 }), 'GET /x')).toMatchObject({ runCount: 5, flakyRunCount: 1 });
});

test("runs of another environment are not scored: the history's staging runs leave a ci run with itself alone", () => {
  const runs = [0, 1, 2].map((index) => ({ ...lineOf('retried', index), environment: 'staging' }));
  const report = scored(runs, 'passed');
  expect(report.history?.flakiness).toMatchObject({ runCount: 1, flakyEndpoints: [] });
});

test('tests are scored where every run names them: a test retried into a pass in one run of three is flaky, with its place and title', () => {
  const passing = [testOf('lists orders', 'passed'), testOf('creates an order', 'passed')];
  const runs = [
    lineOf('passed', 0, passing),
    lineOf('passed', 1, [testOf('lists orders', 'passed', true), testOf('creates an order', 'passed')]),
  ];
  const report = scored(runs, 'passed', { tests: passing });
  expect(report.history?.flakiness).toMatchObject({
    testsScored: true,
    flakyTests: [{ file: 'x.spec.ts', line: 3, title: 'lists orders', score: 0.3333, runCount: 3, flakyRunCount: 1, trend: 'stable' }],
    flakyTestCount: 1,
  });
  // An earlier line of the command (no tests) in the window: the tests' scores count the runs that name them, and say so.
  expect(scored([lineOf('passed', 0), ...runs], 'passed', { tests: passing }).history?.flakiness).toMatchObject({
    testsScored: false,
    flakyTestCount: 1,
  });
});

test('a report not judged against a history, or scored already, is published as it is', () => {
  const plain = reportOf('retried');
  const current = historyRunOf(plain, runIdentityOf(0, {}));
  expect(withFlakinessAcrossRuns(plain, { history: { runs: [] } }, current, 30)).toBe(plain);
  const once = withFlakinessAcrossRuns(judgeReport(plain, { history: { runs: [] } }), { history: { runs: [] } }, current, 30);
  expect(withFlakinessAcrossRuns(once, { history: { runs: [lineOf('retried', 0)] } }, current, 30)).toBe(once);
});

test.describe('newly flaky against a baseline', () => {
  const flakyNow = () => scored([lineOf('passed', 0), lineOf('passed', 1)], 'retried');

  test('an endpoint flaky now and steady in the base is newly flaky; one flaky in both is not', () => {
    const steadyBase = scored([lineOf('passed', 0)], 'passed');
    expect(newlyFlakyOf(flakyNow(), steadyBase)).toEqual({ flakinessAcrossRuns: { baseScored: true, newlyFlakyEndpoints: ['GET /x'] } });
    const flakyBase = scored([lineOf('passed', 0)], 'retried');
    expect(newlyFlakyOf(flakyNow(), flakyBase)).toEqual({ flakinessAcrossRuns: { baseScored: true, newlyFlakyEndpoints: [] } });
  });

  test('an endpoint failing in the base and flaky now is not newly flaky: it was not flaky, it was broken', () => {
    const failingBase = scored([lineOf('failed', 0)], 'failed', { commit: 'd' });
    expect(newlyFlakyOf(flakyNow(), failingBase).flakinessAcrossRuns?.newlyFlakyEndpoints).toEqual([]);
  });

  test('a base with no flakiness across runs names every flaky endpoint, baseScored false', () => {
    expect(newlyFlakyOf(flakyNow(), reportOf('passed'))).toEqual({
      flakinessAcrossRuns: { baseScored: false, newlyFlakyEndpoints: ['GET /x'] },
    });
  });

  test('tests are compared where both reports scored every run’s tests', () => {
    const tests = [testOf('lists orders', 'passed', true)];
    const now = scored([lineOf('passed', 0, [testOf('lists orders', 'passed')])], 'passed', { tests });
    const base = scored([lineOf('passed', 0, [testOf('lists orders', 'passed')])], 'passed', { tests: [testOf('lists orders', 'passed')] });
    expect(newlyFlakyOf(now, base).flakinessAcrossRuns?.newlyFlakyTests).toEqual([{ file: 'x.spec.ts', line: 3, title: 'lists orders' }]);
    const { body } = renderComment({ ...now, baseline: compareWithBaseline(now, base) }, { environment: 'ci' });
    expect(body).toContain('| 🔺 newly flaky test across runs | test `x.spec.ts:3 › lists orders` | 1 of 2 runs flaky (50%), stable |');
    const untested = scored([lineOf('passed', 0)], 'passed');
    expect(newlyFlakyOf(now, untested).flakinessAcrossRuns).not.toHaveProperty('newlyFlakyTests');
  });
});

test.describe('renderings', () => {
  const flaky = () =>
    scored(
      [0, 1, 2, 3].map((index) => lineOf('passed', index)),
      'retried',
    );

  test('the Markdown names a flaky endpoint with its score and trend under the history table', () => {
    const markdown = renderMarkdown(flaky());
    expect(markdown).toContain(
      'Flaky across the last 5 runs (this one the last): failed, then passed on a retry or in the next run of the same commit.\n\n' +
        '- `GET /x`: 1 of 5 runs flaky (20%), stable',
    );
    expect(markdown).not.toContain('`GET /y`: 0 of');
  });

  test('a report with no flakiness across runs says nothing of it', () => {
    const steady = scored([lineOf('passed', 0)], 'passed');
    expect(renderMarkdown(steady)).not.toContain('Flaky across');
    expect(renderHtml(steady)).not.toContain('flakiness');
  });

  test('the page names it in its own short section and in the endpoint’s trend cell', () => {
    const html = renderHtml(flaky());
    expect(html).toContain('<section data-field="history.flakiness"><h2>Flaky across runs</h2>');
    expect(html).toContain('<span class="trend-words flakiness">1 of 5 runs flaky (20%), stable</span>');
  });

  test('the comment lists an endpoint newly flaky across runs as a regression, with its score', () => {
    const now = flaky();
    const base = scored([lineOf('passed', 0)], 'passed');
    const compared = { ...now, baseline: compareWithBaseline(now, base) } as ComparedReport;
    const { body, nothingToReport } = renderComment(compared, { environment: 'ci' });
    expect(nothingToReport).toBe(false);
    expect(body).toContain('| 🔺 newly flaky across runs | `GET /x` | 1 of 5 runs flaky (20%), stable |');
    expect(body).toContain(
      '**vs base: 1 endpoint newly failing, 1 newly flaky across runs, 1 with new statuses, 0 unchanged, 1 too few samples to judge**',
    );
    expect(body).not.toContain('**Flaky across the last');
  });

  test('against a base that scored none, the comment says flaky, not newly flaky, in one line, and reports no regression for it', () => {
    const now = flaky();
    const compared = { ...now, baseline: compareWithBaseline(now, reportOf('passed')) } as ComparedReport;
    const { body } = renderComment(compared, { environment: 'ci' });
    expect(body).toContain(
      '**Flaky across the last 5 runs** (the base scored no flakiness across runs, so none is said to be new): ' +
        '`GET /x` 1 of 5 runs flaky (20%), stable.',
    );
    expect(body).not.toContain('newly flaky across runs');
    expect(body).toContain('**vs base: 1 endpoint newly failing, 1 with new statuses, 0 unchanged, 1 too few samples to judge**');
  });
});
