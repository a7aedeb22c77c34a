import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { expect, test } from './support/test.js';

// What the reporter says on stderr names the file to change, and never lets
// a test's title forge a line. Real Playwright, on small projects.
// Playwright runs of their own (8 to 10 s measured on a loaded machine): 240 s each.
test.describe.configure({ timeout: 240_000 });

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/q.json' }]],
});
`;

test('calls of specs that take test from a fixture file of their own name that file, not the specs', async () => {
  const server: Server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const project = await createPlaywrightProject(
      {
        'playwright.config.ts': config,
        'tests/support/fixtures.ts': `import { test as base, type APIRequestContext } from '@playwright/test';
export { expect } from '@playwright/test';
export const test = base.extend<{ api: APIRequestContext }>({ api: async ({ request }, use) => use(request) });
`,
        'tests/orders.spec.ts': `import { test, expect } from './support/fixtures';
test('lists orders', async ({ api }) => {
  expect((await api.get('/orders')).status()).toBe(200);
});
`,
        'tests/invoices.spec.ts': `import { expect, test } from './support/fixtures';
test('reads an invoice', async ({ api }) => {
  expect((await api.get('/invoices/1')).status()).toBe(200);
  expect((await api.get('/invoices/2')).status()).toBe(200);
});
`,
      },
      { moduleType: 'commonjs' },
    );

    const outcome = await runPlaywright(project, ['test'], { BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain(
      'quality-evidence reporter: 3 API calls of 3 were not recorded, so the report leaves them out:\n' +
        '  - tests/support/fixtures.ts: 3 calls from tests/invoices.spec.ts, tests/orders.spec.ts, ' +
        "which take test from this file; record them by having this file take test from 'quality-evidence/test' instead " +
        "of '@playwright/test' (not by importing it in the specs)\n",
    );
  } finally {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  }
});

test("a newline in a test's title reaches the expected-status annotation's message escaped, on one line", async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config,
    'tests/odd.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('odd\\n  - forged: all fine', { annotation: { type: 'expected-status', description: '4xx' } }, async () => {
  await recordExecution({ statusCode: 404, endpoint: 'GET /x', responseTimeMs: 5 });
});
`,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stderr).toContain(
    'quality-evidence reporter: no report was written: invalid configuration:\n' +
      '  - the "expected-status" annotation of test "odd.spec.ts › odd\\u000a  - forged: all fine": is neither a status code nor a range such as 200-299\n',
  );
});
