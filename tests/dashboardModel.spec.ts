import { dashboardModelOf, verdictOf, webAddressOf, type DashboardEndpoint } from '../src/dashboard/dashboardModel.js';
import { renderDashboard, SHOWN_ENDPOINTS, SPARKLINE_POINTS } from '../src/dashboard/dashboardPage.js';
import { judgeAgainstHistory } from '../src/evaluation/historyTrend.js';
import { scoreFlakiness } from '../src/history/flakiness.js';
import { historyRunOf, runIdentityOf, type HistoryRun } from '../src/history/historyLine.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { environmentOfRun, FLAKY_RATES, REGRESSION, seededHistory, SLOW_DOWN } from './support/seededHistory.js';
import { expect, test } from './support/test.js';

// The history page's numbers (src/dashboard/dashboardModel.ts) held to the
// history they come from: a seeded history of 120 runs × 30 endpoints whose
// truth is known (tests/support/seededHistory.ts), and the page drawn from it.

const RUNS = 120;
const ENDPOINTS = 30;
const history = seededHistory(RUNS, ENDPOINTS);
const model = dashboardModelOf(history.runs);

const entryOf = (endpoint: string, environment = 'production'): DashboardEndpoint =>
  model.endpoints.find((entry) => entry.endpoint === endpoint && entry.environment === environment)!;
const runsOf = (environment: string): HistoryRun[] => history.runs.filter((run) => run.environment === environment);

test('each run on the page has the counts of its history line, in the history order', () => {
  expect(model.runs).toHaveLength(RUNS);
  model.runs.forEach((run, index) => {
    const line = history.runs[index]!;
    expect(run).toMatchObject({
      position: index,
      time: line.time,
      commit: line.commit,
      runId: line.runId,
      environment: environmentOfRun(index),
      executionCount: line.executionCount,
      failedExecutionCount: line.failedExecutionCount,
      budgetsPassed: line.budgetsPassed,
      failedTestCount: line.tests?.filter((entry) => entry.outcome === 'failed').length,
    });
  });
});

test('a run failed from the regression on and passed before it: failures a retry made good fail no run', () => {
  const failed = model.runs.flatMap((run) => (run.verdict === 'failed' ? [run.position] : []));
  expect(failed).toEqual(Array.from({ length: RUNS - history.changeFrom }, (_, index) => history.changeFrom + index));
  expect(model.runs.some((run) => run.position < history.changeFrom && run.failedExecutionCount > 0)).toBe(true);
});

test('the verdict fails a run on a failure no retry made good, a failed test, or budgets that did not hold, and on nothing else', () => {
  expect(verdictOf(0, undefined, undefined)).toBe('passed');
  expect(verdictOf(0, 0, true)).toBe('passed');
  expect(verdictOf(1, undefined, undefined)).toBe('failed');
  expect(verdictOf(0, 1, undefined)).toBe('failed');
  expect(verdictOf(0, undefined, false)).toBe('failed');
});

test('a run judged against a contract shows its operation coverage and the share of conditions covered; others show none', () => {
  expect(model.runs[10]!.contract).toEqual({ operationCoveragePercent: 90, conditionCoveragePercent: 75 });
  expect(model.runs[11]!.contract).toBeUndefined();
});

test('a run names its report only by an http or https URL', () => {
  expect(model.runs[3]!.reportUrl).toBe('https://ci.example.com/runs/9003/quality-summary.html');
  expect(model.runs[4]!.reportUrl).toBeUndefined();
  expect(webAddressOf('javascript:alert(1)')).toBeUndefined();
  expect(webAddressOf('data:text/html,x')).toBeUndefined();
  expect(webAddressOf('/relative/report.html')).toBeUndefined();
  expect(webAddressOf('http://ci.example.com/r')).toBe('http://ci.example.com/r');
});

test("each endpoint's last p50 and p95 are those of its environment's last run, and its series spans that environment's runs", () => {
  for (const environment of ['production', 'staging']) {
    const runs = runsOf(environment);
    const last = runs.at(-1)!;
    for (const line of last.endpoints) {
      const entry = entryOf(line.endpoint, environment);
      expect([entry.lastP50, entry.lastP95]).toEqual([line.p50, line.p95]);
      expect(entry.runCount).toBe(runs.length);
      expect(entry.p95s).toEqual(runs.map((run) => run.endpoints.find((item) => item.endpoint === line.endpoint)!.p95));
      const p95s = entry.p95s as number[];
      expect(entry.p95Range).toEqual({ low: Math.min(...p95s), high: Math.max(...p95s) });
    }
  }
});

test('the failure rate is failed calls over calls in the last 30 runs of the environment, and in the last run', () => {
  const window = runsOf('production').slice(-30);
  const rateOf = (endpoint: string) => {
    const seen = window.map((run) => run.endpoints.find((item) => item.endpoint === endpoint)!);
    return seen.reduce((sum, item) => sum + item.failedExecutionCount, 0) / seen.reduce((sum, item) => sum + item.executionCount, 0);
  };
  for (const endpoint of [REGRESSION, 'GET /flaky-50', 'GET /service-0/items']) {
    expect(entryOf(endpoint).failureRate).toBeCloseTo(rateOf(endpoint), 12);
  }
  expect(entryOf(REGRESSION).lastFailureRate).toBe(1);
  expect(entryOf('GET /service-0/items').lastFailureRate).toBe(0);
});

test('flakiness is scored per environment over its last 30 runs: flaky endpoints flaky, the regression failing, the rest steady', () => {
  const scored = scoreFlakiness(runsOf('production'), { lastRuns: 30 });
  for (const { endpoint, score, ranIn, retriedIn, flipFlopIn, state, trend } of scored.endpoints) {
    const flakyRunCount = new Set([...retriedIn, ...flipFlopIn]).size;
    expect(entryOf(endpoint).flakiness).toEqual({ score, runCount: ranIn.length, flakyRunCount, state, trend });
    expect(flakyRunCount).toBe(Math.round(score * ranIn.length));
  }
  expect(entryOf('GET /flaky-20').flakiness?.state).toBe('flaky');
  expect(entryOf('GET /flaky-50').flakiness?.state).toBe('flaky');
  expect(entryOf(REGRESSION).flakiness?.state).toBe('failing');
  expect(entryOf(REGRESSION, 'staging').flakiness?.state).toBe('failing');
  for (const entry of model.endpoints.filter(({ endpoint }) => endpoint.startsWith('GET /service-') || endpoint === SLOW_DOWN))
    expect(entry.flakiness?.state).toBe('steady');
  expect([...FLAKY_RATES.keys()].every((endpoint) => entryOf(endpoint).flakiness !== undefined)).toBe(true);
});

test('--flakiness-runs sets the window of failure rates and flakiness', () => {
  const wide = dashboardModelOf(history.runs, [], { flakinessRuns: 1000 });
  const entry = wide.endpoints.find((item) => item.endpoint === 'GET /flaky-50' && item.environment === 'production')!;
  expect(entry.flakiness?.runCount).toBe(runsOf('production').length);
  expect(() => dashboardModelOf(history.runs, [], { flakinessRuns: 0 })).toThrow(RangeError);
});

test('endpoints come sorted by how far the last p95 moved from the median of the earlier ones: the slow-down first', () => {
  expect(model.endpoints.slice(0, 2).map((entry) => entry.endpoint)).toEqual([SLOW_DOWN, SLOW_DOWN]);
  const change = entryOf(SLOW_DOWN).p95ChangePercent!;
  expect(change).toBeGreaterThan(150);
  const sizes = model.endpoints.map((entry) => (entry.p95ChangePercent === null ? -1 : Math.abs(entry.p95ChangePercent)));
  expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
});

test("a run's p95 shift on the page is the one its own report's history section gave, against the same earlier runs", () => {
  const random = mulberry32(7);
  const labels = ['GET /a', 'GET /b', 'GET /c', 'GET /d', 'GET /e', 'GET /f'];
  const reports = Array.from(
    { length: 12 },
    (_, run) =>
      buildQualityReport(
        {
          executions: labels.flatMap((endpoint, position) =>
            Array.from({ length: 20 }, () => ({
              endpoint,
              statusCode: 200,
              responseTimeMs: Math.round((30 + 10 * position) * (run === 11 ? 1.3 : 1) * Math.exp(0.1 * normal(random)) * 10) / 10,
            })),
          ),
        },
        { environment: 'ci', slowResponseThresholdMs: 750 },
      ).report,
  );
  const runs = reports.map((report, run) => historyRunOf(report, runIdentityOf(Date.UTC(2026, 1, 1) + run * 60_000, {})));
  const shifts = dashboardModelOf(runs).runs.map((run) => run.runShiftPercent);
  for (const run of [6, 9, 11]) {
    const { history: judged } = judgeAgainstHistory(reports[run]!, { runs: runs.slice(0, run) });
    expect(shifts[run]).toBe(judged.runShiftPercent);
  }
  expect(shifts[11]).toBeGreaterThan(20);
  expect(shifts.slice(0, 5)).toEqual([null, null, null, null, null]);
});

test('the page lists every endpoint: the first 50 by change open, the rest folded', () => {
  const page = renderDashboard(model);
  const open = page.slice(0, page.indexOf('<details id="more-endpoints">'));
  expect(open.match(/<tr data-endpoint=/g)).toHaveLength(SHOWN_ENDPOINTS);
  expect(page.match(/<tr data-endpoint=/g)).toHaveLength(model.endpoints.length);
  expect(page.match(/<tr data-run=/g)).toHaveLength(RUNS);
});

test('text from the history is escaped, and a link is drawn only to an http or https report', () => {
  const [line] = seededHistory(1, 6).runs;
  const hostile: HistoryRun = {
    ...line!,
    environment: '<img src=x onerror=alert(1)>',
    branch: '"><script>alert(2)</script>',
    endpoints: line!.endpoints.map((entry, index) =>
      index === 0 ? { ...entry, endpoint: 'GET /</script><script>alert(3)</script>' } : entry,
    ),
    reportUrl: 'https://ci.example.com/r?a=1&b="2"',
  };
  const page = renderDashboard(dashboardModelOf([hostile, { ...hostile, reportUrl: 'javascript:alert(4)' }]));
  expect(page).not.toContain('<img src=x');
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('javascript:');
  expect(page.match(/<a href=/g)).toHaveLength(1);
  expect(page).toContain('<a href="https://ci.example.com/r?a=1&#38;b=%22' + '2%22" rel="noopener noreferrer">report</a>');
});

test('an empty history draws a page that says so', () => {
  const page = renderDashboard(dashboardModelOf([]));
  expect(page).toContain('The history holds no run yet');
  expect(page).not.toContain('<tr data-run=');
});

test("each endpoint's sparkline is one SVG of two paths, p50 and p95, of at most 60 points however many runs it spans", () => {
  const page = renderDashboard(model);
  const sparklines = [...page.matchAll(/<svg class="spark"[^>]*>(.*?)<\/svg>/g)].map((match) => match[1]!);
  expect(sparklines).toHaveLength(model.endpoints.length);
  for (const sparkline of sparklines) {
    const paths = [...sparkline.matchAll(/<path class="(p50|p95)" d="([^"]*)"\/>/g)];
    expect(paths.map((path) => path[1])).toEqual(['p50', 'p95']);
    for (const [, , d] of paths) expect(d!.replace(/^M/, '').split(/[ L]+/).length / 2).toBeLessThanOrEqual(SPARKLINE_POINTS);
  }
});

test('the runs table has coverage and report columns only when some run has a contract or a report, and says the window the runs fill', () => {
  const bare = (run: HistoryRun): HistoryRun => {
    const { contract: _contract, reportUrl: _reportUrl, ...rest } = run;
    return rest;
  };
  const headersOf = (page: string) => [...page.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map(([, header]) => header).slice(0, 14);
  const short = history.runs.slice(0, 12).map(bare);
  const page = renderDashboard(dashboardModelOf(short));
  expect(headersOf(page).slice(0, 11)).toEqual([
    'Run',
    'Verdict',
    'Time (UTC)',
    'Environment',
    'Executions',
    'Failed',
    'Failed tests',
    'p95 shift',
    'Commit',
    'Branch',
    'Run id',
  ]);
  // 12 runs, 10 of production (the longest environment): the window is 10 of the 30 it could hold.
  expect(page).toContain('Failure rate and flakiness over the last 10 runs of each environment.');
  const full = renderDashboard(model);
  expect(headersOf(full).slice(0, 10)).toEqual([
    'Run',
    'Verdict',
    'Report',
    'Time (UTC)',
    'Environment',
    'Executions',
    'Failed',
    'Failed tests',
    'Operations',
    'Conditions',
  ]);
  expect(full).toContain('Failure rate and flakiness over the last 30 runs of each environment.');
});

test('tests flaky or failing in the window are listed, the highest score first, each with its runs; steady ones are not', () => {
  const test = (title: string, line: number, outcome: 'passed' | 'failed' | 'flaky') => ({ file: 'orders.spec.ts', line, title, outcome });
  const outcomes: readonly (readonly ['passed' | 'failed' | 'flaky', 'passed' | 'failed' | 'flaky'])[] = [
    ['passed', 'passed'],
    ['flaky', 'passed'],
    ['passed', 'failed'],
    ['passed', 'failed'],
  ];
  const runs = runsOf('production')
    .slice(0, 4)
    .map((run, index) => ({
      ...run,
      tests: [
        test('lists orders', 3, outcomes[index]![0]),
        test('creates an order', 9, outcomes[index]![1]),
        test('reads one', 14, 'passed'),
      ],
    }));
  const scored = dashboardModelOf(runs);
  expect(scored.tests).toEqual([
    {
      environment: 'production',
      file: 'orders.spec.ts',
      line: 3,
      title: 'lists orders',
      flakiness: { score: 0.25, runCount: 4, flakyRunCount: 1, state: 'flaky', trend: 'stable' },
    },
    {
      environment: 'production',
      file: 'orders.spec.ts',
      line: 9,
      title: 'creates an order',
      flakiness: { score: 0, runCount: 4, flakyRunCount: 0, state: 'failing', trend: 'stable' },
    },
  ]);
  const page = renderDashboard(scored);
  expect([...page.matchAll(/<tr data-test="([^"]+)" data-state="(\w+)">/g)].map(([, place, state]) => `${place} ${state}`)).toEqual([
    'orders.spec.ts:3 flaky',
    'orders.spec.ts:9 failing',
  ]);
  expect(page).toContain('25%<br><span class="muted">1 of 4 runs</span>');
  expect(renderDashboard(dashboardModelOf(runs.map(({ tests: _tests, ...run }) => run)))).not.toContain('<section id="tests">');
});
