import { recordsAttachedTo } from './support/attachedRecords.js';
import { expect, test } from './support/test.js';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPlaywrightProject, PLAYWRIGHT_VERSION, runPlaywright } from './support/playwrightProject.js';
import { pathExists } from './support/runProgram.js';
import { reportFrom, readReport, withoutTimes } from './support/reports.js';

// Real Playwright runs in CommonJS TypeScript projects (as most suites are)
// that install the packed package, against a local server that counts every
// request it answers: the report must account for each one.
// A Playwright run of its own in each test or hook (a few seconds of CPU; 8 to 27 s measured on a loaded machine):
// 120 s each; the tests that run more set their own.
test.describe.configure({ timeout: 120_000 });

interface CountingServer {
  readonly baseURL: string;
  /** `METHOD /path` of every request the server answered, in order. */
  readonly answered: string[];
  close(): Promise<void>;
}

/** A fictional API on 127.0.0.1. `POST /stop` answers, then stops the server: later calls are refused. */
async function startCountingServer(): Promise<CountingServer> {
  const answered: string[] = [];
  const server: Server = createServer((request, response) => {
    const route = `${request.method ?? ''} ${(request.url ?? '').split('?')[0] ?? ''}`;
    answered.push(route);
    const status = request.method === 'POST' ? 201 : request.method === 'DELETE' ? 204 : 200;
    response.writeHead(status, { 'content-type': 'application/json' }).end(status === 204 ? undefined : '{}');
    if (route === 'POST /stop') {
      server.close();
      server.closeAllConnections();
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseURL,
    answered,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => {
          closed();
        });
      }),
  };
}

const config = (extraReporters = '') => `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['list'], ${extraReporters}['quality-evidence/reporter', { outputFile: 'out/quality-summary.json' }]],
});
`;

const recordedSpec = `import { test, expect, request } from 'quality-evidence/test';

test('orders through the request fixture', async ({ request }) => {
  expect((await request.get('/orders?page=2')).status()).toBe(200);
  expect((await request.post('/orders', { data: { item: 'book' } })).status()).toBe(201);
});

test('a context the test makes itself', async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: process.env.BASE_URL, extraHTTPHeaders: { authorization: 'Bearer fictional' } });
  expect((await api.get('/booking/42')).status()).toBe(200);
  await api.dispose();
});

test('a context made with request.newContext(), request imported from quality-evidence/test', async () => {
  const api = await request.newContext({ baseURL: process.env.BASE_URL });
  expect((await api.get('/booking/43')).status()).toBe(200);
  await api.dispose();
});
`;

const plainSpec = `import { test, expect } from '@playwright/test';

test('plain requests', async ({ request }) => {
  expect((await request.get('/booking/7')).status()).toBe(200);
  expect((await request.delete('/booking/8')).status()).toBe(204);
});
`;

test.describe('every call the server answered is recorded or counted as unrecorded', () => {
  let server: CountingServer;
  let project: string;
  let outcome: Awaited<ReturnType<typeof runPlaywright>>;

  test.beforeAll(async () => {
    server = await startCountingServer();
    project = await createPlaywrightProject(
      {
        'playwright.config.ts': config(`['json', { outputFile: 'out/playwright.json' }], `),
        'tests/recorded.spec.ts': recordedSpec,
        'tests/plain.spec.ts': plainSpec,
      },
      { moduleType: 'commonjs' },
    );
    outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('recorded plus unrecorded equals the calls the server answered', async () => {
    expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/quality-summary.json'));
    expect(server.answered).toHaveLength(6);
    expect(report.executionCount + (report.unrecordedCallCount ?? 0)).toBe(server.answered.length);
    expect(report).toMatchObject({
      executionCount: 4,
      unrecordedCallCount: 2,
      unrecordedEndpoints: ['DELETE /booking/:id', 'GET /booking/:id'],
      noResponseCount: 0,
    });
  });

  test('a context made with playwright.request.newContext() is recorded', async () => {
    const attachments = await recordsAttachedTo(join(project, 'out/playwright.json'), 'a context the test makes itself');
    expect(attachments.map((record) => [record['statusCode'], record['endpoint']])).toEqual([[200, 'GET /booking/42']]);
  });

  test('a context made with the request that quality-evidence/test exports is recorded', async () => {
    const attachments = await recordsAttachedTo(
      join(project, 'out/playwright.json'),
      'a context made with request.newContext(), request imported from quality-evidence/test',
    );
    expect(attachments.map((record) => [record['statusCode'], record['endpoint']])).toEqual([[200, 'GET /booking/43']]);
  });

  test('the spec file that imports @playwright/test is named on stderr with the one-line fix', () => {
    expect(outcome.stderr).toContain(
      'quality-evidence reporter: 2 API calls of 6 were not recorded, so the report leaves them out:\n' +
        "  - tests/plain.spec.ts: 2 calls; record them with: import { test, expect } from 'quality-evidence/test'\n",
    );
    expect(outcome.stderr).not.toContain('recorded.spec.ts');
  });

  test('the run ends with one line giving the headline numbers and where the report is', () => {
    expect(outcome.stdout).toContain(
      'quality-evidence: 4 calls: 0 server errors, 0 failed, 0 slow, 0 with no response, 2 calls not recorded; ' +
        'report written to out/quality-summary.json (also .md, .html)\n',
    );
  });

  test('each recorded call carries the response time and phases Playwright measured (APIResponse.timing(), Playwright 1.62 and later)', async () => {
    const records = await recordsAttachedTo(join(project, 'out/playwright.json'), 'orders through the request fixture');
    expect(records).toHaveLength(2);
    const [major, minor] = PLAYWRIGHT_VERSION;
    if (major === 1 && minor < 62) {
      // An older Playwright measures no phases: the records say nothing of them, and their time is still there.
      for (const record of records) {
        expect(record['timingMs']).toBeUndefined();
        expect(record['responseTimeMs']).toBeGreaterThanOrEqual(0);
      }
      return;
    }
    for (const record of records) {
      const timing = record['timingMs'] as Record<string, number>;
      expect(Object.keys(timing).filter((phase) => phase === 'wait' || phase === 'receive')).toEqual(['wait', 'receive']);
      expect(Object.values(timing).every((ms) => ms >= 0)).toBe(true);
      expect(record['responseTimeMs']).toBeGreaterThanOrEqual(timing['wait']! + timing['receive']!);
    }
    // The worker's first call opens the connection; the second reuses it.
    expect(records.map((record) => 'connect' in (record['timingMs'] as object))).toEqual([true, false]);
  });
});

test('a server stopped mid-suite: the calls after the stop are no-response executions, said on stderr, with no frame of the wrapper in the stack', async () => {
  const server = await startCountingServer();
  const project = await createPlaywrightProject(
    {
      'playwright.config.ts': config(),
      'tests/a-recorded.spec.ts': `import { test, expect } from 'quality-evidence/test';

test('before the stop', async ({ request }) => {
  expect((await request.get('/orders')).status()).toBe(200);
});

test('stops the server', async ({ request }) => {
  expect((await request.post('/stop')).status()).toBe(201);
});

test('after the stop', async ({ request }) => {
  await request.get('/orders/3');
});
`,
      'tests/b-plain.spec.ts': `import { test } from '@playwright/test';

test('plain, after the stop', async ({ request }) => {
  await request.delete('/booking/7');
});
`,
    },
    { moduleType: 'commonjs' },
  );

  const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });
  await server.close();

  expect(outcome.exitCode, 'the two calls after the stop fail their tests').toBe(1);
  expect(server.answered).toEqual(['GET /orders', 'POST /stop']);
  const report = await readReport(join(project, 'out/quality-summary.json'));
  expect(report).toMatchObject({
    executionCount: 4,
    failedExecutionCount: 2,
    failureCountByEndpoint: { 'DELETE /booking/:id': 1, 'GET /orders/:id': 1 },
    noResponseCount: 2,
    noResponseEndpoints: ['DELETE /booking/:id', 'GET /orders/:id'],
    unrecordedCallCount: 0,
  });
  expect(outcome.stderr).toContain(
    'quality-evidence reporter: 2 API calls got no response (2 endpoints); is the server under test running?\n',
  );
  expect(outcome.stdout, 'the call still throws to the test').toContain('Error: apiRequestContext.get: connect ECONNREFUSED');
  expect(outcome.stdout).toContain(`at ${join(project, 'tests/a-recorded.spec.ts')}:12:17`);
  expect(outcome.stdout, 'no frame of the recording wrapper').not.toMatch(/quality-evidence[/\\]\.build|recorded-call/);
});

test("calls no record accounts for are labelled by the run's routes, as recorded calls are", async () => {
  const server = await startCountingServer();
  const project = await createPlaywrightProject(
    {
      'playwright.config.ts': config().replace(
        "{ outputFile: 'out/quality-summary.json' }",
        "{ outputFile: 'out/quality-summary.json', routes: ['/usuarios/:userId'] }",
      ),
      'tests/plain.spec.ts': `import { test, expect } from '@playwright/test';

test('opaque ids', async ({ request }) => {
  expect((await request.get('/usuarios/8P0BlkWfpjRO60K1')).status()).toBe(200);
  expect((await request.delete('/usuarios/0uxuPY0cbmQhpEz1')).status()).toBe(204);
});
`,
    },
    { moduleType: 'commonjs' },
  );
  const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });
  await server.close();
  expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
  const report = await readReport(join(project, 'out/quality-summary.json'));
  expect(report).toMatchObject({
    executionCount: 0,
    unrecordedCallCount: 2,
    unrecordedEndpoints: ['DELETE /usuarios/:userId', 'GET /usuarios/:userId'],
  });
});

test('a run whose tests record nothing says so in one line', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(),
    'tests/none.spec.ts': `import { test } from '@playwright/test';\ntest('no api', () => {});\ntest('no api either', () => {});\n`,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(0);
  expect(outcome.stderr).toBe(
    'quality-evidence reporter: 2 tests ran and no API call was recorded: use the request fixture of quality-evidence/test, or recordExecution\n',
  );
});

test.describe('quality-evidence.config.json', () => {
  const recordingSpec = `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('records', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 6 });
});
`;
  const settingsFile = JSON.stringify({
    $schema: './node_modules/quality-evidence/schemas/settings.schema.json',
    environment: 'from-file',
    slowResponseThresholdMs: 5,
    outputFile: 'reports/quality.json',
    quiet: true,
  });
  const configWithoutReporter = `import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests' });\n`;

  test('the reporter named only on the command line honours it, and quiet silences the closing line', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': configWithoutReporter,
      'quality-evidence.config.json': settingsFile,
      'tests/one.spec.ts': recordingSpec,
    });

    const outcome = await runPlaywright(project, ['test', '--reporter=quality-evidence/reporter']);

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(await readReport(join(project, 'reports/quality.json'))).toMatchObject({
      environment: 'from-file',
      slowResponseThresholdMs: 5,
      executionCount: 1,
      slowExecutionCount: 1,
    });
    expect(outcome.stdout).not.toContain('quality-evidence:');
  });

  test('merge-reports --reporter honours it too', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': configWithoutReporter,
      'quality-evidence.config.json': settingsFile,
      'tests/one.spec.ts': recordingSpec,
    });

    await runPlaywright(project, ['test', '--reporter=blob'], { PLAYWRIGHT_BLOB_OUTPUT_FILE: 'all-blob-reports/report-1.zip' });
    const outcome = await runPlaywright(project, ['merge-reports', '--reporter', 'quality-evidence/reporter', './all-blob-reports']);

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(await readReport(join(project, 'reports/quality.json'))).toMatchObject({ environment: 'from-file', executionCount: 1 });
  });

  test('a variable wins over the file, and an option wins over the variable', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts':
        "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests', reporter: " +
        "[['quality-evidence/reporter', { environment: 'from-option' }]] });\n",
      'quality-evidence.config.json': settingsFile,
      'tests/one.spec.ts': recordingSpec,
    });

    const outcome = await runPlaywright(project, ['test'], { QE_ENVIRONMENT: 'from-variable', QE_SLOW_RESPONSE_THRESHOLD_MS: '10' });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(await readReport(join(project, 'reports/quality.json'))).toMatchObject({
      environment: 'from-option',
      slowResponseThresholdMs: 10,
      slowExecutionCount: 0,
    });
  });

  test('a bad file stops the run before any test, naming each key and the file', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': configWithoutReporter,
      'quality-evidence.config.json': '{ "outputfile": "x.json", "slowResponseThresholdMs": "fast" }',
      'tests/one.spec.ts': recordingSpec,
    });

    const outcome = await runPlaywright(project, ['test', '--reporter=quality-evidence/reporter']);
    const file = join(project, 'quality-evidence.config.json');

    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stdout + outcome.stderr).toContain(
      'ConfigurationError: invalid quality-evidence/reporter settings:\n' +
        `  - outputfile in ${file}: is not a setting of quality-evidence.config.json (known: environment, ` +
        `slowResponseThresholdMs, outputFile, quiet, progress, expectedStatuses, expectedStatusesByEndpoint, apiCalls, routes, ` +
        `endpointGrouping, budgets, baselinePath, historyPath, historyLimit, historyReadOnly, historyPartialRuns, flakinessRuns, ` +
        `dashboardPath, baselineFromHistory, significanceLevel, failureExcerptBytes, redactKeys, openapi, openapiBase, exports, serviceName, ` +
        `traceContext, traceUrlTemplate, reportUrl, otlpSpanLimit, formats)\n` +
        `  - slowResponseThresholdMs in ${file}: must be a whole number of milliseconds, 0 or more; got "fast" (a string)\n`,
    );
    expect(await pathExists(join(project, 'test-results'))).toBe(false);
  });

  test('a QE_CONFIG_PATH that names a missing file stops the run', async () => {
    const project = await createPlaywrightProject({ 'playwright.config.ts': configWithoutReporter, 'tests/one.spec.ts': recordingSpec });

    const outcome = await runPlaywright(project, ['test', '--reporter=quality-evidence/reporter'], {
      QE_CONFIG_PATH: 'ci/quality-evidence.json',
    });

    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stdout + outcome.stderr).toContain(
      `cannot read the settings file ${JSON.stringify(join(project, 'ci/quality-evidence.json'))}: no such file or directory (ENOENT)`,
    );
  });
});

test('shards merged with merge-reports account for calls exactly as the single run does', async () => {
  // Four Playwright runs (the single run, two shards, the merge): 45 s measured on a loaded machine.
  test.setTimeout(240_000);
  const server = await startCountingServer();
  const refused = await startCountingServer();
  await refused.close(); // a port on this machine that nothing listens on: calls to it are refused
  const project = await createPlaywrightProject(
    {
      'playwright.config.ts': config(),
      'tests/recorded.spec.ts': `${recordedSpec}
test('a call to a port nothing listens on', async ({ request }) => {
  await expect(request.get(process.env.REFUSED_URL + '/down')).rejects.toThrow('ECONNREFUSED');
});
`,
      'tests/plain.spec.ts': `${plainSpec}
test('plain, refused', async ({ request }) => {
  await expect(request.get(process.env.REFUSED_URL + '/plain-down')).rejects.toThrow('ECONNREFUSED');
});
`,
    },
    { moduleType: 'commonjs' },
  );
  const env = { BASE_URL: server.baseURL, REFUSED_URL: refused.baseURL };

  const single = await runPlaywright(project, ['test'], env);
  const singleReport = await readFile(join(project, 'out/quality-summary.json'), 'utf8');
  for (const shard of [1, 2]) {
    await runPlaywright(project, ['test', `--shard=${shard}/2`, '--reporter=blob'], {
      ...env,
      PLAYWRIGHT_BLOB_OUTPUT_FILE: `all-blob-reports/report-${shard}.zip`,
    });
  }
  const merged = await runPlaywright(project, ['merge-reports', '--reporter', 'quality-evidence/reporter', './all-blob-reports'], {
    QE_OUTPUT_PATH: 'out/merged.json',
  });
  await server.close();

  expect([single.exitCode, merged.exitCode]).toEqual([0, 0]);
  expect(JSON.parse(singleReport)).toMatchObject({
    executionCount: 6,
    noResponseCount: 2,
    noResponseEndpoints: ['GET /down', 'GET /plain-down'],
    unrecordedCallCount: 2,
  });
  // The shards are a second run of real calls: every count and label is the same, the times are not.
  expect(withoutTimes(reportFrom(await readFile(join(project, 'out/merged.json'), 'utf8')))).toEqual(
    withoutTimes(reportFrom(singleReport)),
  );
});
