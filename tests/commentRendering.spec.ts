import { commentMarker, COMMENT_LIMIT_CHARACTERS, renderComment } from '../src/report/comment/renderComment.js';
import { apiCalls, compared, reportOf, type CallSeries } from './support/comparedReports.js';
import { expect, test } from './support/test.js';

// The pull-request comment as `quality-evidence comment` writes it
// (src/report/comment/renderComment.ts), from reports compared with their
// base by the package's own comparison.

const slowerAndFailing = compared(reportOf(apiCalls({ slowdown: 1.5, failing: 3 })), reportOf(apiCalls()));
const options = { environment: 'staging', artifactsUrl: 'https://github.example/owner/repo/actions/runs/4242' };

/** `count` endpoints of 30 calls each, `GET /e0` on, each time scaled by `scale(index)`. */
function manyEndpoints(count: number, scale: (index: number) => number, from = 0): CallSeries[] {
  return Array.from({ length: count }, (_, offset) => ({
    endpoint: `GET /endpoint/${String(from + offset).padStart(5, '0')}/items`,
    count: 30,
    time: (call: number) => Math.round((20 + (call % 10)) * scale(from + offset) * 10) / 10,
  }));
}

test('the first line is the marker of the environment, URI-encoded so that no name can end the HTML comment or break the line', () => {
  expect(commentMarker('staging')).toBe('<!-- quality-evidence:staging -->');
  expect(commentMarker('eu west -->\nx')).toBe('<!-- quality-evidence:eu%20west%20--%3E%0Ax -->');
  const long = commentMarker('e'.repeat(100_000));
  expect(long).toMatch(/^<!-- quality-evidence:e{100}~[0-9a-f]{8} -->$/);
  expect(commentMarker(`${'e'.repeat(99_999)}f`)).not.toBe(long);
  expect(renderComment(slowerAndFailing, options).body.split('\n')[0]).toBe('<!-- quality-evidence:staging -->');
});

test('regressions come first, each with p50 and p95 before and after, n on each side and the failed statuses; then what held, folded', () => {
  const { body, nothingToReport } = renderComment(slowerAndFailing, options);
  expect(nothingToReport).toBe(false);
  expect(body).toContain('**vs base: 1 endpoint slower, 1 newly failing, 1 with new statuses, 1 unchanged, 1 too few samples to judge**');
  const rows = body.split('\n').filter((line) => line.startsWith('| 🔺'));
  expect(rows).toEqual([
    '| 🔺 newly failing | `POST /orders` | 64 ms (0%) | 69 ms → 69 ms (0%) | 100 → 100 | 0 → 3 (0% → 3%): `500` ×3 |  |',
    '| 🔺 slower | `GET /orders` | 73.5 ms (+50%) | 58 ms → 87 ms (+50%) | 200 → 200 | 0 → 0 (0% → 0%) |  |',
  ]);
  const order = ['#### Regressions (2)', '<details>', '| `GET /health` | too few samples |', '| `GET /users` | unchanged |', '</details>'];
  expect(order.map((text) => body.indexOf(text))).toEqual([...order.map((text) => body.indexOf(text))].sort((a, b) => a - b));
  expect(body).not.toContain('#### Improvements');
  expect(body).toContain("among [the run's artifacts](https://github.example/owner/repo/actions/runs/4242).");
});

test('improvements follow the regressions', () => {
  const base = reportOf([...apiCalls({ slowdown: 1.5 }), { endpoint: 'GET /slow', count: 200, time: (index) => 100 + (index % 20) }]);
  const head = reportOf([...apiCalls({ failing: 2 }), { endpoint: 'GET /slow', count: 200, time: (index) => 150 + (index % 20) }]);
  const { body } = renderComment(compared(head, base), options);
  expect(body.indexOf('#### Regressions (2)')).toBeLessThan(body.indexOf('#### Improvements (1)'));
  expect(body).toContain('| 🔻 faster | `GET /orders` |');
});

test('the tests behind a newly failing endpoint are named with their file and line, three at most', () => {
  const report = structuredClone(slowerAndFailing);
  const orders = report.endpoints.find((endpoint) => endpoint.endpoint === 'POST /orders')!;
  orders.tests = [1, 2, 3, 4].map((line) => ({
    title: `orders.spec.ts › creates order ${line}`,
    file: 'tests/orders.spec.ts',
    line,
    column: 1,
    calls: 25,
    failedCalls: line === 4 ? 0 : 1,
  }));
  orders.testCount = 4;
  const row = renderComment(report, options)
    .body.split('\n')
    .find((line) => line.startsWith('| 🔺 newly failing'));
  expect(row?.split(' | ').at(-1)).toBe(
    '`orders.spec.ts › creates order 1 (tests/orders.spec.ts:1)`<br>`orders.spec.ts › creates order 2 (tests/orders.spec.ts:2)`<br>' +
      '`orders.spec.ts › creates order 3 (tests/orders.spec.ts:3)` |',
  );
});

test('nothing to report means no regression and no improvement: a new endpoint alone makes no comment, and is listed', () => {
  const head = reportOf([...apiCalls(), { endpoint: 'GET /new', count: 50, time: () => 10 }]);
  const rendered = renderComment(compared(head, reportOf(apiCalls())), options);
  expect(rendered.nothingToReport).toBe(true);
  expect(rendered.body).toContain(
    'Nothing to report: no endpoint got slower, started failing or failed more, and none got faster or recovered.',
  );
  expect(rendered.body).toContain('| • new | `GET /new` |');
});

test('the base commit is named when the baseline came from the history', () => {
  const report = structuredClone(slowerAndFailing);
  report.baseline.run = { time: '2025-01-02T03:04:05.000Z', commit: '0123456789abcdef0123456789abcdef01234567', branch: 'main' };
  expect(renderComment(report, options).body).toContain(
    'Compared with the base commit `0123456789ab` (branch `main`, run of 2025-01-02T03:04:05.000Z) · executions 503 → 503',
  );
});

test('3,000 slower endpoints and 3,000 faster ones fit in GitHub’s 65,536 characters, regressions first, saying what was left out and where', () => {
  const base = reportOf([...manyEndpoints(3000, () => 1), ...manyEndpoints(3000, () => 2, 3000), ...manyEndpoints(500, () => 1, 6000)]);
  const head = reportOf([...manyEndpoints(3000, () => 2), ...manyEndpoints(3000, () => 1, 3000), ...manyEndpoints(500, () => 1, 6000)]);
  const rendered = renderComment(compared(head, base), options);
  expect(rendered.findings.regressions).toHaveLength(3000);
  expect(rendered.findings.improvements).toHaveLength(3000);
  expect(rendered.body.length).toBeLessThanOrEqual(COMMENT_LIMIT_CHARACTERS);
  expect(rendered.body.length).toBeGreaterThan(COMMENT_LIMIT_CHARACTERS - 1000);
  const shown = rendered.body.split('\n').filter((line) => line.startsWith('| 🔺')).length;
  expect(shown).toBeGreaterThan(200);
  expect(rendered.body).not.toContain('#### Improvements');
  expect(rendered.body).not.toContain('<details>');
  expect(rendered.leftOut).toBe(3000 - shown + 3000 + 500);
  expect(rendered.body).toContain(
    `**Left out to stay within GitHub's 65,536 characters for a comment:** ${(3000 - shown).toLocaleString('en-US')} regressions, ` +
      "3,000 improvements, 500 endpoints that held. They are in the report's `baseline` section, among " +
      "[the run's artifacts](https://github.example/owner/repo/actions/runs/4242).",
  );
});

test('every report fits any limit it is given: the body is never longer, and what is left out is counted', () => {
  for (const limit of [1500, 2000, 3000]) {
    const rendered = renderComment(slowerAndFailing, { ...options, limitCharacters: limit });
    expect(rendered.body.length).toBeLessThanOrEqual(limit);
  }
  const tight = renderComment(slowerAndFailing, { ...options, limitCharacters: 1500 });
  expect(tight.leftOut).toBeGreaterThan(0);
  expect(tight.body).toContain('**Left out to stay within');
});
