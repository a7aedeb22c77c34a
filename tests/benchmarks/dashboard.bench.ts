import { chromium } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS } from '../support/chromium.js';
import { repositoryRoot } from '../support/runProgram.js';
import { seededHistory } from '../support/seededHistory.js';

// What the history page costs (npm run bench:dashboard), on the seeded
// history of 500 runs × 200 endpoints in two environments
// (tests/support/seededHistory.ts): the command, a whole process, and the
// page in Debian's Chromium at 1280 and 390 px wide: its first contentful
// paint and its load event, from navigation start, each in a fresh page;
// medians of 5 rounds; and the sizes of the history and the page.

const RUNS = 500;
const ENDPOINTS = 200;
const ROUNDS = 5;
const command = join(repositoryRoot, '.build/bin/quality-evidence.js');
const folder = mkdtempSync(join(tmpdir(), 'quality-evidence-dashboard-bench-'));
const historyPath = join(folder, 'history.jsonl');
const pagePath = join(folder, 'dashboard.html');
writeFileSync(historyPath, seededHistory(RUNS, ENDPOINTS).text);

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const commandTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  const outcome = spawnSync(process.execPath, [command, 'dashboard', '--history', historyPath, '--output', pagePath], { cwd: folder });
  commandTimes.push(performance.now() - started);
  if (outcome.status !== 0) throw new Error(outcome.stderr.toString());
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
const screens: { width: number; paint: number[]; load: number[] }[] = [];
for (const width of [1280, 390]) {
  const paint: number[] = [];
  const load: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(pathToFileURL(pagePath).href, { waitUntil: 'load' });
    // The paint entry can come a moment after the load event: wait for it rather than read an entry not there yet.
    await page.waitForFunction("performance.getEntriesByName('first-contentful-paint').length > 0");
    const [firstPaint, loaded] = await page.evaluate<[number, number]>(
      "[performance.getEntriesByName('first-contentful-paint')[0].startTime, performance.getEntriesByType('navigation')[0].loadEventEnd]",
    );
    paint.push(firstPaint);
    load.push(loaded);
    await page.close();
  }
  screens.push({ width, paint, load });
}
await browser.close();

const mib = (path: string) => (statSync(path).size / 1048576).toFixed(2);
console.log(`history: ${mib(historyPath)} MiB for ${RUNS} runs × ${ENDPOINTS} endpoints; page: ${mib(pagePath)} MiB`);
console.log('| measured | median ms |\n|---|---:|');
console.log(`| the command (a whole process) | ${median(commandTimes).toFixed(0)} |`);
for (const { width, paint, load } of screens) {
  console.log(`| first contentful paint at ${width} px | ${median(paint).toFixed(0)} |`);
  console.log(`| load event at ${width} px | ${median(load).toFixed(0)} |`);
}
rmSync(folder, { recursive: true, force: true });
