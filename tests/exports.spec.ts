import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROMETHEUS_BUCKETS_SECONDS } from '../src/exports/prometheus.js';
import { bucketValue } from '../src/summary/latencyHistogram.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import {
  attributesOf,
  ctrfSchemaErrors,
  decodeOtlp,
  promtoolCheck,
  requireExportCheckers,
  xmllintCheck,
  type OtlpPoint,
} from './support/exportCheckers.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { reportFrom } from './support/reports.js';
import { createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// One run writes the four exports; each is read by its own system's tool,
// and every count in it is the report's.

test.beforeEach(requireExportCheckers);

const COMMAND = 'src/cli/main.js';

const ENDPOINTS = ['GET /orders', 'GET /orders/:id', 'POST /orders', 'DELETE /orders/:id', 'GET /health', 'GET /search/"q"\\a&<b>'];
const STATUSES = [200, 200, 200, 201, 204, 301, 404, 429, 500, 503];

/** Records over six endpoints: ten statuses, two error codes, times from 0 to over 10 s (log-normal), by a seeded generator. */
function records(count: number, seed: number): string {
  const random = mulberry32(seed);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const endpoint = ENDPOINTS[Math.floor(random() * ENDPOINTS.length)]!;
    const roll = random();
    const outcome =
      roll < 0.03
        ? { errorCode: 'ECONNREFUSED' }
        : roll < 0.05
          ? { errorCode: 'ETIMEDOUT' }
          : { statusCode: STATUSES[Math.floor(random() * STATUSES.length)]! };
    const responseTimeMs = roll > 0.99 ? 0 : Math.round(Math.exp(Math.log(60) + 1.6 * normal(random)) * 1000) / 1000;
    lines.push(JSON.stringify({ endpoint, ...outcome, responseTimeMs }));
  }
  return `${lines.join('\n')}\n`;
}

const GITHUB = {
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REF_NAME: 'main',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_RUN_ID: '4242',
  GITHUB_WORKFLOW: 'api tests',
  GITHUB_SERVER_URL: 'https://github.com',
};

type Endpoint = QualityReport['endpoints'][number];

/** The report's times of an endpoint by status, as a map from `200` or `ECONNREFUSED`. */
function timesByOutcome(entry: Endpoint): Map<string, NonNullable<Endpoint['latencyByStatus']>[number]> {
  return new Map((entry.latencyByStatus ?? []).map((times) => [String(times.statusCode ?? times.errorCode), times]));
}

test.describe('one run writes OpenTelemetry, Prometheus, CTRF and JUnit files that their own tools accept', () => {
  let folder: string;
  let report: QualityReport;

  test.beforeAll(async () => {
    folder = await createTemporaryFolder(
      {
        'calls.ndjson': records(3000, 23),
        'budgets.json': JSON.stringify({
          maxFailedExecutions: 0,
          responseTimeMs: { p95: 60_000 },
          endpoints: { 'GET /health': { maxFailureRate: 0.5 } },
        }),
      },
      'exports',
    );
    const outcome = await runProgram(COMMAND, {
      cwd: folder,
      args: [
        'calls.ndjson',
        '-o',
        'out/quality-summary.json',
        '--budgets',
        'budgets.json',
        '--environment',
        'staging',
        '--service-name',
        'shop-api',
        '--quiet',
        '--export',
        'otlp=out/metrics.jsonl',
        '--export',
        'prometheus=out/metrics.prom',
        '--export',
        'ctrf=out/ctrf.json',
        '--export',
        'junit=out/junit.xml',
      ],
      env: GITHUB,
    });
    // maxFailedExecutions 0 is breached: the run exits 1, with every file written.
    expect(outcome.exitCode, outcome.stderr).toBe(1);
    report = reportFrom(await readFile(join(folder, 'out/quality-summary.json'), 'utf8'));
  });

  test(`OTLP: protobuf decodes it by the protocol's .proto files; one exponential histogram point per endpoint and status, \
every count, sum and bucket the report's`, async () => {
    const [request, ...more] = await decodeOtlp(join(folder, 'out/metrics.jsonl'), folder);
    expect(more).toEqual([]);
    const resourceMetrics = request!.resourceMetrics;
    expect(resourceMetrics).toHaveLength(1);
    expect(attributesOf(resourceMetrics[0]!.resource.attributes)).toEqual({
      'service.name': 'shop-api',
      'deployment.environment.name': 'staging',
      'vcs.ref.head.revision': GITHUB.GITHUB_SHA,
      'vcs.ref.head.name': 'main',
      'vcs.repository.url.full': 'https://github.com/acme/shop',
      'cicd.pipeline.name': 'api tests',
      'cicd.pipeline.run.id': '4242',
      'cicd.pipeline.run.url.full': 'https://github.com/acme/shop/actions/runs/4242',
    });
    const [scope] = resourceMetrics[0]!.scopeMetrics;
    expect(scope!.scope.name).toBe('quality-evidence');
    // One metric, a histogram: no precomputed percentile anywhere.
    expect(
      scope!.metrics.map((metric) => [
        metric.name,
        metric.unit,
        Object.keys(metric).filter((key) => !['name', 'unit', 'description'].includes(key)),
      ]),
    ).toEqual([['http.client.request.duration', 's', ['exponentialHistogram']]]);
    const histogram = scope!.metrics[0]!.exponentialHistogram!;
    expect(histogram.aggregationTemporality).toBe('AGGREGATION_TEMPORALITY_DELTA');

    const points = new Map<string, OtlpPoint>();
    for (const point of histogram.dataPoints) {
      const attributes = attributesOf(point.attributes);
      // No run attribute on a point: the run is on the Resource.
      expect(
        Object.keys(attributes).every((key) =>
          ['http.request.method', 'url.template', 'http.response.status_code', 'error.type'].includes(key),
        ),
      ).toBe(true);
      const status = attributes['http.response.status_code'];
      // error.type: a status from 400, as text; for a call with no answer, its error.
      if (typeof status === 'number') expect(attributes['error.type']).toBe(status >= 400 ? String(status) : undefined);
      points.set(`${attributes['http.request.method']} ${attributes['url.template']} ${status ?? attributes['error.type']}`, point);
    }
    const expected = report.endpoints.flatMap((entry) =>
      [...timesByOutcome(entry)].map(([outcome, times]) => ({ key: `${entry.endpoint} ${outcome}`, times })),
    );
    expect([...points.keys()].sort()).toEqual(expected.map(({ key }) => key).sort());
    expect(expected.reduce((total, { times }) => total + times.executionCount, 0)).toBe(report.executionCount);
    for (const { key, times } of expected) {
      const point = points.get(key)!;
      expect(Number(point.count), key).toBe(times.executionCount);
      expect(point.sum, key).toBeCloseTo(times.totalMs / 1000, 9);
      expect(Number(point.zeroCount ?? 0), key).toBe(times.latencyHistogram.zeroCount);
      const counts = (point.positive?.bucketCounts ?? []).map(Number);
      expect(counts.reduce((total, count) => total + count, 0) + Number(point.zeroCount ?? 0), key).toBe(times.executionCount);
      expect(counts.length, key).toBeLessThanOrEqual(160);
      // Every bin of the report falls in the bucket that holds it: (base^index, base^(index + 1)] seconds.
      const base = 2 ** (2 ** -(point.scale ?? 0));
      const byBucket = new Map<number, number>();
      for (const [bin, count] of times.latencyHistogram.bins) {
        const seconds = bucketValue(bin) / 1000;
        const index = Math.ceil(Math.log(seconds) / Math.log(base)) - 1;
        expect(seconds > base ** index && seconds <= base ** (index + 1) * (1 + 1e-12), key).toBe(true);
        byBucket.set(index, (byBucket.get(index) ?? 0) + count);
      }
      const offset = point.positive?.offset ?? 0;
      expect(new Map(counts.flatMap((count, at) => (count === 0 ? [] : [[offset + at, count] as [number, number]]))), key).toEqual(
        byBucket,
      );
    }
    const times = histogram.dataPoints.map((point) => [point.startTimeUnixNano, point.timeUnixNano]);
    expect(new Set(times.map((pair) => pair.join())).size).toBe(1);
  });

  test("Prometheus: promtool finds nothing to say; each endpoint and status class is a histogram whose buckets and count are the report's", async () => {
    const text = await readFile(join(folder, 'out/metrics.prom'), 'utf8');
    expect(await promtoolCheck(text)).toEqual({ passed: true, output: '' });
    expect(text).not.toMatch(/quantile=/);
    const samples = new Map<string, number>();
    for (const line of text.split('\n')) {
      if (line.startsWith('#') || line === '') continue;
      const at = line.lastIndexOf(' ');
      samples.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    const labelsOf = (endpoint: string, statusClass: string): string => {
      const space = endpoint.indexOf(' ');
      const escape = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
      return (
        `service="shop-api",environment="staging",http_request_method="${endpoint.slice(0, space)}",` +
        `url_template="${escape(endpoint.slice(space + 1))}",status_class="${statusClass}"`
      );
    };
    let series = 0;
    for (const entry of report.endpoints) {
      const classes = new Map<string, { count: number; totalMs: number; values: number[]; zeros: number }>();
      for (const times of entry.latencyByStatus!) {
        const name = times.statusCode === undefined ? 'no_response' : `${Math.floor(times.statusCode / 100)}xx`;
        const known = classes.get(name) ?? { count: 0, totalMs: 0, values: [], zeros: 0 };
        known.count += times.executionCount;
        known.totalMs += times.totalMs;
        known.zeros += times.latencyHistogram.zeroCount;
        for (const [bin, count] of times.latencyHistogram.bins)
          for (let copy = 0; copy < count; copy++) known.values.push(bucketValue(bin) / 1000);
        classes.set(name, known);
      }
      for (const [name, { count, totalMs, values, zeros }] of classes) {
        series++;
        const labels = labelsOf(entry.endpoint, name);
        expect(samples.get(`http_client_request_duration_seconds_count{${labels}}`), labels).toBe(count);
        expect(samples.get(`http_client_request_duration_seconds_bucket{${labels},le="+Inf"}`), labels).toBe(count);
        expect(samples.get(`http_client_request_duration_seconds_sum{${labels}}`), labels).toBeCloseTo(totalMs / 1000, 9);
        for (const le of PROMETHEUS_BUCKETS_SECONDS) {
          expect(samples.get(`http_client_request_duration_seconds_bucket{${labels},le="${le}"}`), `${labels} le ${le}`).toBe(
            zeros + values.filter((value) => value <= le).length,
          );
        }
      }
      const { method, template } = {
        method: entry.endpoint.slice(0, entry.endpoint.indexOf(' ')),
        template: entry.endpoint.slice(entry.endpoint.indexOf(' ') + 1),
      };
      expect(
        samples.get(
          `quality_evidence_failed_executions{service="shop-api",environment="staging",http_request_method="${method}",` +
            `url_template="${template.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"}`,
        ),
      ).toBe(entry.failedExecutionCount);
    }
    expect([...samples.keys()].filter((key) => key.startsWith('http_client_request_duration_seconds_count')).length).toBe(series);
    expect(samples.get('quality_evidence_budgets_breached{service="shop-api",environment="staging"}')).toBe(
      report.budgets!.results.filter((result) => !result.passed).length,
    );
  });

  test('CTRF: the published schema and the reference implementation accept it; one test per budget, the evidence under extra.qualityEvidence', async () => {
    const document = JSON.parse(await readFile(join(folder, 'out/ctrf.json'), 'utf8')) as {
      results: {
        summary: Record<string, number>;
        tests: { name: string; status: string }[];
        extra: { qualityEvidence: Record<string, unknown> };
        environment: Record<string, string>;
      };
    };
    expect(await ctrfSchemaErrors(document)).toEqual([]);
    const ctrf = await import('ctrf');
    expect(ctrf.validate(document)).toEqual({ valid: true, errors: [] });
    const results = report.budgets!.results;
    expect(document.results.tests.map(({ name, status }) => [name, status])).toEqual(
      results.map((result) => [
        result.endpoint === undefined ? result.budget : `${result.budget} of ${result.endpoint}`,
        result.passed ? 'passed' : 'failed',
      ]),
    );
    const { start, stop, duration: _duration, ...counts } = document.results.summary;
    expect(counts).toEqual({
      tests: results.length,
      passed: results.filter((result) => result.passed).length,
      failed: results.filter((result) => !result.passed).length,
      skipped: 0,
      pending: 0,
      other: 0,
    });
    expect(stop).toBeGreaterThanOrEqual(start!);
    expect(document.results.extra.qualityEvidence).toMatchObject({
      executionCount: report.executionCount,
      failedExecutionCount: report.failedExecutionCount,
      noResponseCount: report.noResponseCount,
      budgetsPassed: false,
    });
    expect(document.results.environment).toMatchObject({
      testEnvironment: 'staging',
      branchName: 'main',
      commit: GITHUB.GITHUB_SHA,
      buildUrl: 'https://github.com/acme/shop/actions/runs/4242',
    });
  });

  test(`JUnit: xmllint validates it against the JUnit schema; one test case per budget and per endpoint with failed calls, \
each failure with the measured value and the limit`, async () => {
    const path = join(folder, 'out/junit.xml');
    expect(await xmllintCheck(path)).toEqual({ passed: true, output: `${path} validates\n` });
    const xml = await readFile(path, 'utf8');
    const failing = report.endpoints.filter((entry) => entry.failedExecutionCount > 0);
    const breached = report.budgets!.results.filter((result) => !result.passed);
    const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((match) => [match[1], match[2]]);
    expect(cases.length).toBe(report.budgets!.results.length + failing.length);
    expect(xml).toContain(
      `<testsuites name="quality-evidence" tests="${cases.length}" failures="${breached.length + failing.length}" errors="0"`,
    );
    expect(xml).toContain('<failure type="budget breached" message="FAIL maxFailedExecutions: ');
    expect(xml).toContain(`measured: ${report.failedExecutionCount.toLocaleString('en-US')}\nlimit: ≤ 0`);
    expect(xml.split('failed (limit 0: statuses expected 100-399, every call answered)').length - 1).toBe(failing.length);
    // A label's quotes, ampersand and angle brackets are escaped as XML, and read back as they were.
    expect(xml).toContain('name="GET /search/&quot;q&quot;\\a&amp;&lt;b&gt;"');
  });
});

test('check --export writes the exports with its own verdict, and merge --export those of the merged report', async () => {
  const folder = await createTemporaryFolder(
    { 'a.ndjson': records(400, 5), 'b.ndjson': records(300, 6), 'budgets.json': JSON.stringify({ maxFailedExecutions: 100_000 }) },
    'exports-check',
  );
  for (const name of ['a', 'b'])
    expect(
      (await runProgram(COMMAND, { cwd: folder, args: [`${name}.ndjson`, '-o', `${name}/quality-summary.json`, '--quiet'] })).exitCode,
    ).toBe(0);
  const merged = await runProgram(COMMAND, {
    cwd: folder,
    args: [
      'merge',
      'a/quality-summary.json',
      'b/quality-summary.json',
      '-o',
      'all/quality-summary.json',
      '--quiet',
      '--export',
      'prometheus=all/metrics.prom',
      '--export',
      'otlp=all/metrics.jsonl',
    ],
  });
  expect(merged.exitCode, merged.stderr).toBe(0);
  const [request] = await decodeOtlp(join(folder, 'all/metrics.jsonl'), folder);
  const points = request!.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.exponentialHistogram!.dataPoints;
  expect(points.reduce((total, point) => total + Number(point.count), 0)).toBe(700);
  expect((await promtoolCheck(await readFile(join(folder, 'all/metrics.prom'), 'utf8'))).passed).toBe(true);

  const checked = await runProgram(COMMAND, {
    cwd: folder,
    args: [
      'check',
      'all/quality-summary.json',
      '--budgets',
      'budgets.json',
      '--export',
      'junit=all/junit.xml',
      '--export',
      'ctrf=all/ctrf.json',
    ],
  });
  expect(checked.exitCode, checked.stderr).toBe(0);
  expect(checked.stdout).toContain('quality-evidence check: exports written to all/ctrf.json, all/junit.xml');
  expect((await xmllintCheck(join(folder, 'all/junit.xml'))).passed).toBe(true);
  expect(await readFile(join(folder, 'all/junit.xml'), 'utf8')).toContain(
    '<testcase classname="quality-evidence.quality budgets" name="maxFailedExecutions" time="0"/>',
  );
  const ctrf = JSON.parse(await readFile(join(folder, 'all/ctrf.json'), 'utf8')) as unknown;
  expect(await ctrfSchemaErrors(ctrf)).toEqual([]);
  expect((ctrf as { results: { summary: { tests: number; passed: number } } }).results.summary).toMatchObject({ tests: 1, passed: 1 });
});

test('an export that cannot be written fails the run (73) and leaves every earlier file whole', async () => {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(50, 9) }, 'exports-fail');
  expect(
    (
      await runProgram(COMMAND, {
        cwd: folder,
        args: ['a.ndjson', '-o', 'out/quality-summary.json', '--quiet', '--export', 'junit=out/junit.xml'],
      })
    ).exitCode,
  ).toBe(0);
  const before = await Promise.all(
    ['quality-summary.json', 'quality-summary.md', 'quality-summary.html', 'junit.xml'].map((name) =>
      readFile(join(folder, 'out', name), 'utf8'),
    ),
  );
  await writeFile(join(folder, 'b.ndjson'), records(60, 10));
  // The Prometheus file's place is a folder: nothing of this run is written.
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(folder, 'out/metrics.prom'));
  const outcome = await runProgram(COMMAND, {
    cwd: folder,
    args: [
      'b.ndjson',
      '-o',
      'out/quality-summary.json',
      '--quiet',
      '--export',
      'junit=out/junit.xml',
      '--export',
      'prometheus=out/metrics.prom',
    ],
  });
  expect(outcome.exitCode).toBe(73);
  expect(outcome.stderr).toContain('prometheus export');
  const after = await Promise.all(
    ['quality-summary.json', 'quality-summary.md', 'quality-summary.html', 'junit.xml'].map((name) =>
      readFile(join(folder, 'out', name), 'utf8'),
    ),
  );
  expect(after).toEqual(before);
});

const reporterSpec = `import { test, expect } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';

test('lists orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 120 });
});

test.describe('an order', () => {
  test('is read', async () => {
    await recordExecution({ statusCode: 404, endpoint: 'GET /orders/7', responseTimeMs: 30 });
    expect(1, 'the order is missing').toBe(2);
  });

  test('is flaky', async ({}, testInfo) => {
    await recordExecution({ statusCode: testInfo.retry === 0 ? 503 : 200, endpoint: 'GET /orders/8', responseTimeMs: 40 });
    expect(testInfo.retry).toBe(1);
  });
});

test.skip('not written yet', async () => {});
`;

test("from the reporter, CTRF lists the run's tests as Playwright ended them, JUnit adds that the run completed, and OTLP spans the run", async () => {
  // Two Playwright runs in a packed project: about 10 s of CPU, 21 to 54 s measured on a loaded machine.
  test.setTimeout(180_000);
  const { createPlaywrightProject, runPlaywright } = await import('./support/playwrightProject.js');
  const project = await createPlaywrightProject({
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  retries: 1,
  reporter: [
    [
      'quality-evidence/reporter',
      {
        outputFile: 'out/quality-summary.json',
        serviceName: 'orders-tests',
        exports: { ctrf: 'out/ctrf.json', junit: 'out/junit.xml', otlp: 'out/metrics.jsonl' },
      },
    ],
  ],
});
`,
    'tests/orders.spec.ts': reporterSpec,
  });
  // The OpenTelemetry SDK is an optional peer dependency: without it the run stops before any test, saying what to install.
  const without = await runPlaywright(project, ['test'], {});
  expect(without.exitCode).toBe(1);
  expect(without.stdout + without.stderr).toContain(
    'exports: otlp needs the OpenTelemetry SDK, which is not installed: ' +
      'npm install --save-dev @opentelemetry/otlp-transformer @opentelemetry/sdk-metrics @opentelemetry/resources',
  );
  expect(without.stdout).not.toContain('lists orders');
  await expect(readFile(join(project, 'out/quality-summary.json'), 'utf8')).rejects.toThrow('ENOENT');
  // Installed, as the message says.
  await symlink(join(repositoryRoot, 'node_modules/@opentelemetry'), join(project, 'node_modules/@opentelemetry'), 'dir');
  const before = Date.now();
  const outcome = await runPlaywright(project, ['test'], {});
  expect(outcome.exitCode, `${outcome.stdout}${outcome.stderr}`).toBe(1);
  const report = reportFrom(await readFile(join(project, 'out/quality-summary.json'), 'utf8'));
  expect(report.tests).toEqual({ total: 4, passed: 1, failed: 1, flaky: 1, skipped: 1 });

  const ctrf = JSON.parse(await readFile(join(project, 'out/ctrf.json'), 'utf8')) as {
    results: { tool: { name: string }; summary: Record<string, number>; tests: Record<string, unknown>[] };
  };
  expect(await ctrfSchemaErrors(ctrf)).toEqual([]);
  expect(ctrf.results.tool.name).toBe('playwright');
  // CTRF's passed is the report's passed and flaky together; its flaky, the report's flaky.
  expect(ctrf.results.summary).toMatchObject({ tests: 4, passed: 2, failed: 1, skipped: 1, pending: 0, other: 0, flaky: 1 });
  expect(ctrf.results.summary['start']).toBeGreaterThanOrEqual(before);
  expect(
    ctrf.results.tests.map(({ name, status, filePath, line, retries, flaky, suite }) => ({
      name,
      status,
      filePath,
      line,
      retries,
      flaky,
      suite,
    })),
  ).toEqual([
    {
      name: 'orders.spec.ts › lists orders',
      status: 'passed',
      filePath: 'orders.spec.ts',
      line: 4,
      retries: 0,
      flaky: false,
      suite: ['orders.spec.ts'],
    },
    {
      name: 'orders.spec.ts › an order › is read',
      status: 'failed',
      filePath: 'orders.spec.ts',
      line: 9,
      retries: 1,
      flaky: false,
      suite: ['orders.spec.ts', 'an order'],
    },
    {
      name: 'orders.spec.ts › an order › is flaky',
      status: 'passed',
      filePath: 'orders.spec.ts',
      line: 14,
      retries: 1,
      flaky: true,
      suite: ['orders.spec.ts', 'an order'],
    },
    {
      name: 'orders.spec.ts › not written yet',
      status: 'skipped',
      filePath: 'orders.spec.ts',
      line: 20,
      retries: 0,
      flaky: false,
      suite: ['orders.spec.ts'],
    },
  ]);
  expect(ctrf.results.tests[1]!['message']).toContain('the order is missing');

  const junit = join(project, 'out/junit.xml');
  expect((await xmllintCheck(junit)).passed).toBe(true);
  const xml = await readFile(junit, 'utf8');
  expect(xml).toContain('<testcase classname="quality-evidence.run" name="the run completed, so its evidence is whole" time="0"/>');
  expect(
    [...xml.matchAll(/<testcase classname="quality-evidence.endpoints with failed calls" name="([^"]*)"/g)].map((match) => match[1]),
  ).toEqual(['GET /orders/7', 'GET /orders/8']);

  const [request] = await decodeOtlp(join(project, 'out/metrics.jsonl'), project);
  expect(attributesOf(request!.resourceMetrics[0]!.resource.attributes)['service.name']).toBe('orders-tests');
  const [point] = request!.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.exponentialHistogram!.dataPoints;
  // The points cover the run: from Playwright's start to the report.
  expect(BigInt(point!.timeUnixNano!) - BigInt(point!.startTimeUnixNano!)).toBeGreaterThan(0n);
  expect(Number(BigInt(point!.startTimeUnixNano!) / 1_000_000n)).toBeGreaterThanOrEqual(before);
});

test('an interrupted run reads as failing in JUnit and in CTRF budgets: its evidence passes nothing', async () => {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(40, 3) }, 'exports-interrupted');
  expect((await runProgram(COMMAND, { cwd: folder, args: ['a.ndjson', '-o', 'whole.json', '--quiet'] })).exitCode).toBe(0);
  // A report as the reporter writes it for a run stopped by Ctrl-C.
  const whole = JSON.parse(await readFile(join(folder, 'whole.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(
    join(folder, 'cut.json'),
    `${JSON.stringify({ ...whole, tests: { total: 3, passed: 1, failed: 0, flaky: 0, skipped: 2 }, runStatus: 'interrupted' }, null, 2)}\n`,
  );
  await writeFile(join(folder, 'budgets.json'), JSON.stringify({ maxFailedExecutions: 100_000 }));
  const checked = await runProgram(COMMAND, {
    cwd: folder,
    args: ['check', 'cut.json', '--budgets', 'budgets.json', '--export', 'junit=junit.xml', '--export', 'ctrf=ctrf.json'],
  });
  expect(checked.exitCode).toBe(1);
  const xml = await readFile(join(folder, 'junit.xml'), 'utf8');
  expect((await xmllintCheck(join(folder, 'junit.xml'))).passed).toBe(true);
  expect(xml).toContain(
    '<failure type="incomplete run" message="the run was interrupted before its tests were done: the evidence is incomplete, so it passes no budget">',
  );
  const ctrf = JSON.parse(await readFile(join(folder, 'ctrf.json'), 'utf8')) as {
    results: { summary: { failed: number }; tests: { name: string; status: string }[] };
  };
  expect(ctrf.results.tests.map(({ name, status }) => [name, status])).toEqual([
    ['maxFailedExecutions', 'passed'],
    ['the run completed, so its evidence is whole', 'failed'],
  ]);
  expect(ctrf.results.summary.failed).toBe(1);
});
