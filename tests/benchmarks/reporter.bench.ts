// Benchmark (npm run bench:reporter): wall time of a Playwright run of 2,000
// tests that each record 5 executions, with the quality-evidence reporter
// registered and without it, alternating, medians compared, and the time
// spent inside the reporter itself. A third run whose
// tests record nothing shows what the attachments themselves cost. Timings
// are reported, never asserted.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from '../support/playwrightProject.js';

const files = Number(process.env['BENCH_FILES'] ?? 20);
const testsPerFile = Number(process.env['BENCH_TESTS_PER_FILE'] ?? 100);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const workers = process.env['BENCH_WORKERS'] ?? 'undefined';

function config(reporter: string): string {
  return `export default { testDir: './tests', workers: ${workers}, reporter: ${reporter} };\n`;
}

// Wraps the real reporter and adds up the time spent in it (loading it and
// every hook), which wall-clock medians on a shared machine cannot resolve.
const timedReporter = `import { writeFileSync } from 'node:fs';
const loadStarted = performance.now();
const { default: QualityEvidenceReporter } = await import('quality-evidence/reporter');
let spentMs = performance.now() - loadStarted;
const timed = (work) => { const started = performance.now(); try { return work(); } finally { spentMs += performance.now() - started; } };
export default class TimedReporter {
  constructor(options) { this.inner = timed(() => new QualityEvidenceReporter(options)); }
  printsToStdio() { return false; }
  onBegin(config, suite) { timed(() => this.inner.onBegin(config, suite)); }
  onTestEnd(test, result) { timed(() => this.inner.onTestEnd(test, result)); }
  async onEnd(result) {
    const started = performance.now();
    const outcome = await this.inner.onEnd(result);
    spentMs += performance.now() - started;
    writeFileSync('out/reporter-time.json', JSON.stringify({ spentMs }));
    return outcome;
  }
}
`;

function specFile(index: number): string {
  return `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
const recording = process.env.BENCH_RECORD === '1';
for (let n = 0; n < ${testsPerFile}; n++) {
  test('file ${index} test ' + n, async () => {
    if (!recording) return;
    for (let call = 0; call < 5; call++) {
      await recordExecution({
        statusCode: (n + call) % 17 === 0 ? 500 : 200,
        endpoint: 'GET /orders/' + (call * 7 + n) % 50,
        responseTimeMs: (n * 37 + call * 101) % 1200,
      });
    }
  });
}
`;
}

const projectFiles: Record<string, string> = {
  'with-reporter.config.ts': config(`[['dot'], ['./timed-reporter.mjs', { outputFile: 'out/quality-summary.json' }]]`),
  'timed-reporter.mjs': timedReporter,
  'without-reporter.config.ts': config(`[['dot']]`),
};
for (let index = 0; index < files; index++) projectFiles[`tests/file-${index}.spec.ts`] = specFile(index);
const project = await createPlaywrightProject(projectFiles);

async function timeRun(configFile: string, record: boolean): Promise<number> {
  const started = process.hrtime.bigint();
  const outcome = await runPlaywright(project, ['test', '--config', configFile], { BENCH_RECORD: record ? '1' : '0' });
  if (outcome.exitCode !== 0) throw new Error(`benchmark run failed: ${outcome.stdout}${outcome.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function round3(value: number): number {
  return Number(value.toFixed(3));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const withReporter: number[] = [];
const reporterMs: number[] = [];
const withoutReporter: number[] = [];
const withoutRecords: number[] = [];
for (let round = 0; round < rounds; round++) {
  withReporter.push(await timeRun('with-reporter.config.ts', true));
  reporterMs.push((JSON.parse(await readFile(join(project, 'out/reporter-time.json'), 'utf8')) as { spentMs: number }).spentMs);
  withoutReporter.push(await timeRun('without-reporter.config.ts', true));
  withoutRecords.push(await timeRun('without-reporter.config.ts', false));
}
const report = JSON.parse(await readFile(join(project, 'out/quality-summary.json'), 'utf8')) as { executionCount: number };
const withSeconds = median(withReporter);
const withoutSeconds = median(withoutReporter);
process.stdout.write(
  `${JSON.stringify(
    {
      tests: files * testsPerFile,
      executionsRecorded: report.executionCount,
      workers: workers === 'undefined' ? "Playwright's default" : Number(workers),
      rounds,
      withReporterMedianSeconds: Number(withSeconds.toFixed(3)),
      withoutReporterMedianSeconds: Number(withoutSeconds.toFixed(3)),
      reporterOverheadPercent: Number(((withSeconds / withoutSeconds - 1) * 100).toFixed(1)),
      timeInReporterMedianMs: Number(median(reporterMs).toFixed(1)),
      timeInReporterPercentOfRun: Number(((median(reporterMs) / 1000 / withoutSeconds) * 100).toFixed(2)),
      noRecordsNoReporterMedianSeconds: Number(median(withoutRecords).toFixed(3)),
      samples: {
        withReporter: withReporter.map(round3),
        withoutReporter: withoutReporter.map(round3),
        withoutRecords: withoutRecords.map(round3),
      },
    },
    null,
    2,
  )}\n`,
);
