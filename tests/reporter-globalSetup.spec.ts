import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// Calls made outside any test, in the runner's own process: a config's globalSetup and globalTeardown,
// which Playwright runs beside the reporter. Found adopting the package on a real suite, whose global
// setup's 500 gave a report of "0 server errors". Real Playwright, on small projects, against a local server.
// Playwright runs of their own (8 to 10 s measured on a loaded machine): 240 s each.
test.describe.configure({ timeout: 240_000 });

/** A server that answers its first request 500 and every other 200, and the requests it got (`DELETE /sessions`). */
async function serverFailingOnce(): Promise<{ readonly url: string; readonly received: readonly string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    response.writeHead(received.length === 0 ? 500 : 200, { 'content-type': 'application/json' }).end('{}');
    received.push(`${request.method} ${request.url}`);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

/** A global setup (or teardown) that makes two calls with the `request` of `module`. */
function globalHook(module: string, name: string, calls: string): string {
  return `import { request } from '${module}';
export default async function ${name}() {
  const api = await request.newContext({ baseURL: process.env.BASE_URL });
${calls}
  await api.dispose();
}
`;
}

const spec = `import { test } from 'quality-evidence/test';
test('runs', async () => {});
`;

test('calls of a global setup made with the request of quality-evidence/test are counted, its 500 a server error of the global setup', async () => {
  const server = await serverFailingOnce();
  try {
    const project = await createPlaywrightProject(
      {
        // As the suite it was found on names it: a CommonJS project, its setup resolved with require.resolve.
        'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  globalSetup: require.resolve('./global-setup'),
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/q.json' }]],
});
`,
        'global-setup.ts': globalHook(
          'quality-evidence/test',
          'globalSetup',
          `  await api.post('/usuarios', { data: { nome: 'admin' } });
  await api.get('/usuarios');`,
        ),
        'tests/runs.spec.ts': spec,
      },
      { moduleType: 'commonjs' },
    );

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/q.json'));
    const setup = { title: 'global setup', file: '../global-setup.ts', line: 1, column: 1 };
    expect({
      executionCount: report.executionCount,
      serverErrorCount: report.serverErrorCount,
      failedExecutionCount: report.failedExecutionCount,
      statusCodes: report.statusCodes,
      failedExecutions: report.endpoints
        .flatMap((endpoint) => endpoint.failedExecutions ?? [])
        .map(({ responseTimeMs: _, ...call }) => call),
    }).toStrictEqual({
      executionCount: 2,
      serverErrorCount: 1,
      failedExecutionCount: 1,
      statusCodes: { '200': 1, '500': 1 },
      failedExecutions: [
        {
          method: 'POST',
          path: '/usuarios',
          statusCode: 500,
          test: setup,
          attempt: 1,
          callLocation: { file: '../global-setup.ts', line: 4, column: 13 },
          // A call outside any test is traced too, in a trace of its own.
          traceId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown as string,
          spanId: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string,
          location: 'test "global setup" (attempt 1)',
        },
      ],
    });
  } finally {
    await server.close();
  }
});

test("calls of a global teardown made with the request of quality-evidence/test, one with no response, are the global teardown's", async () => {
  const server = await serverFailingOnce();
  // A port nothing listens on: the second call of the teardown gets no response.
  const closed = await serverFailingOnce();
  await closed.close();
  try {
    const project = await createPlaywrightProject({
      'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  globalTeardown: './support/global-teardown.ts',
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/q.json' }]],
});
`,
      'support/global-teardown.ts': globalHook(
        'quality-evidence/test',
        'globalTeardown',
        `  await api.delete('/sessions');
  await api.get(process.env.CLOSED_URL + '/health').catch(() => undefined);`,
      ),
      'tests/runs.spec.ts': spec,
    });

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url, CLOSED_URL: closed.url });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const report = await readReport(join(project, 'out/q.json'));
    const teardown = {
      title: 'global teardown',
      file: '../support/global-teardown.ts',
      line: 1,
      column: 1,
      calls: 1,
      failedCalls: 1,
      serverErrorCalls: 1,
    };
    expect(
      report.endpoints.map(({ endpoint, statusCodes, noResponseCount, tests }) => ({ endpoint, statusCodes, noResponseCount, tests })),
    ).toStrictEqual([
      { endpoint: 'DELETE /sessions', statusCodes: { '500': 1 }, noResponseCount: 0, tests: [teardown] },
      { endpoint: 'GET /health', statusCodes: {}, noResponseCount: 1, tests: [teardown] },
    ]);
  } finally {
    await server.close();
  }
});

test('a global setup that makes its calls with the request of @playwright/test is named in a warning, and none of its calls is in the report', async () => {
  const server = await serverFailingOnce();
  try {
    const project = await createPlaywrightProject({
      'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/q.json' }]],
});
`,
      'global-setup.ts': globalHook(
        '@playwright/test',
        'globalSetup',
        `  await api.post('/usuarios', { data: { nome: 'admin' } });
  await api.get('/usuarios');`,
      ),
      'tests/runs.spec.ts': spec,
    });

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain(
      'quality-evidence reporter: global-setup.ts calls the API with request from @playwright/test, which the report cannot see: ' +
        "import { request } from 'quality-evidence/test' there\n",
    );
    const report = await readReport(join(project, 'out/q.json'));
    expect({ executionCount: report.executionCount, unrecordedCallCount: report.unrecordedCallCount }).toStrictEqual({
      executionCount: 0,
      unrecordedCallCount: 0,
    });
  } finally {
    await server.close();
  }
});

// Playwright 1.45 runs no global teardown after a failed global setup; 1.65 runs it: its call, where it was made, is the teardown's.
test("a global setup's call that failed it is in the report the failed run writes, and the teardown's call after it is the teardown's", async () => {
  const server = await serverFailingOnce();
  try {
    const project = await createPlaywrightProject({
      'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/q.json' }]],
});
`,
      'global-teardown.ts': globalHook('quality-evidence/test', 'globalTeardown', `  await api.delete('/sessions');`),
      'global-setup.ts': globalHook(
        'quality-evidence/test',
        'globalSetup',
        `  const created = await api.post('/usuarios', { data: { nome: 'admin' } });
  if (!created.ok()) throw new Error('the admin user could not be created: ' + created.status());`,
      ),
      'tests/runs.spec.ts': spec,
    });

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url });

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr + outcome.stdout).toContain('the admin user could not be created: 500');
    const report = await readReport(join(project, 'out/q.json'));
    expect({
      runStatus: report.runStatus,
      serverErrorCount: report.serverErrorCount,
      tests: report.endpoints.map(({ endpoint, tests }) => ({ endpoint, tests })),
    }).toStrictEqual({
      runStatus: 'failed',
      serverErrorCount: 1,
      tests: [
        ...(server.received.includes('DELETE /sessions')
          ? [
              {
                endpoint: 'DELETE /sessions',
                tests: [{ title: 'global teardown', file: '../global-teardown.ts', line: 1, column: 1, calls: 1, failedCalls: 0 }],
              },
            ]
          : []),
        {
          endpoint: 'POST /usuarios',
          tests: [{ title: 'global setup', file: '../global-setup.ts', line: 1, column: 1, calls: 1, failedCalls: 1, serverErrorCalls: 1 }],
        },
      ],
    });
  } finally {
    await server.close();
  }
});
