import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordExecution } from '../reporter/index.js';
import { expect, test } from '../reporter/test.js';

// How a team feeds the reporter, both ways, against a small local API. The
// repository's own playwright.config.ts registers the reporter, so these
// executions land in .build/self-test/quality-summary.json.

let server: Server;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const found = request.method === 'GET' && request.url?.startsWith('/orders') === true;
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(found ? '[{"id":1}]' : '{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
});

test.afterAll(async () => {
  await new Promise((closed) => server.close(closed));
});

function baseURL(): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('the request fixture records each call without any code in the test', async ({ request }) => {
  const response = await request.get(`${baseURL()}/orders?status=open`);

  expect(response.status()).toBe(200);
  const recorded = test.info().attachments.filter((attachment) => attachment.name === 'quality-evidence-execution');
  expect(recorded).toHaveLength(1);
  expect(JSON.parse(recorded[0]?.body?.toString() ?? '{}')).toMatchObject({ statusCode: 200, endpoint: 'GET /orders' });
});

test(
  'recordExecution attaches a record measured by the test itself',
  { annotation: { type: 'expected-status', description: '404' } },
  async ({ request }) => {
    const started = performance.now();
    const response = await request.get(`${baseURL()}/missing`);
    await recordExecution({
      id: 'manual-missing',
      statusCode: response.status(),
      endpoint: 'GET /missing',
      responseTimeMs: performance.now() - started,
    });

    const recorded = test.info().attachments.filter((attachment) => attachment.name === 'quality-evidence-execution');
    expect(recorded.map((attachment) => (JSON.parse(attachment.body?.toString() ?? '{}') as { id?: string }).id)).toEqual([
      undefined,
      'manual-missing',
    ]);
  },
);

test('recordExecution attaches only the record fields and the attempt, whatever else the object carries', async () => {
  const record = { statusCode: 201, endpoint: 'POST /orders', responseTimeMs: 12, headers: { authorization: 'Bearer not-for-reports' } };
  await recordExecution(record);

  const [attachment] = test.info().attachments;
  expect(attachment?.body?.toString()).toBe('{"statusCode":201,"endpoint":"POST /orders","responseTimeMs":12,"retry":0}');
});

test('recordExecution refuses a bad record at once, with the runner message', async () => {
  await expect(recordExecution({ statusCode: 200, endpoint: 'orders', responseTimeMs: 1 })).rejects.toThrow(
    '1 of 1 record is invalid:\n  - record[0].endpoint: must be of the form "<METHOD> <path>", with a path that starts with "/"; found "orders" (a string)',
  );
});
