import { chromium } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { observeBrowserCalls } from '../../reporter/worker/browserCalls.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS } from '../support/chromium.js';

// What observing a browser's API calls costs the test (npm run bench:browser):
// a page that makes 200 fetch calls one after another to a local server
// (each answered at once), timed from the test's side, with the observer on
// the context and without it, alternating, 9 rounds each, medians. Debian's
// Chromium, the shared 2-core machine.

const CALLS = 200;
const ROUNDS = 9;

const server = createServer((request, response) => {
  if (request.url === '/') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>bench</title>');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"ok":true}');
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });

async function round(observed: boolean): Promise<{ ms: number; recorded: number }> {
  const context = await browser.newContext();
  let recorded = 0;
  const observation = observed
    ? observeBrowserCalls(context, {}, () => ({
        record: () => {
          recorded++;
        },
        count: () => undefined,
      }))
    : undefined;
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  const started = performance.now();
  // A string: the benchmarks are compiled without the DOM's types.
  await page.evaluate(
    `(async () => { for (let call = 0; call < ${CALLS}; call++) await fetch('/api/items/' + call).then((response) => response.json()); })()`,
  );
  const ms = performance.now() - started;
  await observation?.stop();
  await context.close();
  return { ms, recorded };
}

const times = { without: [] as number[], with: [] as number[] };
let recorded = 0;
await round(false);
for (let index = 0; index < ROUNDS; index++) {
  times.without.push((await round(false)).ms);
  const observed = await round(true);
  times.with.push(observed.ms);
  recorded = observed.recorded;
}
await browser.close();
server.close();
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: readonly number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
console.log(`${CALLS} fetch calls a round, ${ROUNDS} rounds each, alternating; ${recorded} executions recorded in an observed round`);
console.log('| | median ms | min–max ms |\n|---|---:|---:|');
console.log(`| without the observer | ${median(times.without).toFixed(0)} | ${spread(times.without)} |`);
console.log(`| with the observer | ${median(times.with).toFixed(0)} | ${spread(times.with)} |`);
console.log(`ratio of medians: ${(median(times.with) / median(times.without)).toFixed(3)}`);
