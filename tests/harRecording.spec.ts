import { chromium } from '@playwright/test';
import { expect, test } from './support/test.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { nodeFileSystem } from '../src/index.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createTemporaryFolder } from './support/runProgram.js';

// A real HAR: recorded by Playwright's recordHar in Debian's Chromium (which
// .ci/run installs) against a small server on 127.0.0.1, then summarised.
const executablePath = CHROMIUM_PATH;

const page = `<!doctype html>
<html><head><link rel="icon" href="data:,"><script src="/app.js"></script></head>
<body><img src="/logo.png">
<script>
  window.done = (async () => {
    await fetch('/api/orders/1');
    await fetch('/api/orders/2?page=2');
    await fetch('/api/missing', { method: 'DELETE' });
    await fetch(REFUSED + '/api/down').catch(() => undefined);
    return true;
  })();
</script></body></html>`;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

test('a HAR recorded with recordHar summarises: API calls counted, page assets left out, the refused call has no response', async () => {
  requireChromium();
  const refusedServer = createServer();
  const refused = await listen(refusedServer);
  await new Promise((closed) => refusedServer.close(closed));
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(page.replace('REFUSED', JSON.stringify(refused)));
    else if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end('// app');
    else if (path === '/logo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    else if (path?.startsWith('/api/orders/')) response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  const baseURL = await listen(server);
  const folder = await createTemporaryFolder({}, 'har');
  const harPath = join(folder, 'session.har');
  const browser = await chromium.launch({ executablePath, args: QUIET_CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ recordHar: { path: harPath } });
    const tab = await context.newPage();
    await tab.goto(baseURL);
    expect(await tab.evaluate('window.done')).toBe(true);
    await context.close();
  } finally {
    await browser.close();
    await new Promise((closed) => server.close(closed));
  }

  const { report } = await runQualityWorkflow(
    { environment: 'har', slowResponseThresholdMs: 5000, inputPath: harPath, outputPath: join(folder, 'quality-summary.json') },
    { fileSystem: nodeFileSystem },
  );

  expect(report).toMatchObject({
    executionCount: 4,
    failedExecutionCount: 2,
    failureCountByEndpoint: { 'DELETE /api/missing': 1, 'GET /api/down': 1 },
    noResponseCount: 1,
    noResponseEndpoints: ['GET /api/down'],
    skippedAssetCount: 3,
  });
});
