import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyText } from '../../src/history/historyFile.js';
import { historyRunOf, runIdentityOf } from '../../src/history/historyLine.js';
import { buildReport } from '../../src/report/qualityReport.js';
import { ExecutionAccumulator } from '../../src/summary/executionAccumulator.js';
import { mulberry32, normal } from '../support/latencyTrials.js';
import { repositoryRoot } from '../support/runProgram.js';

// What a history file and merging cost (npm run bench:history): the command
// on 200 endpoints × 50 calls (10,000 records) without a history, judged
// against a history of 100 runs (read only), and appending to it; and merge
// of 4 reports of 200 endpoints. Whole processes, alternated round by
// round, medians of 7 rounds. The data: mulberry32, seeded, log-normal times.

const ENDPOINTS = 200;
const CALLS = 50;
const ROUNDS = 7;
const command = join(repositoryRoot, '.build/bin/quality-evidence.js');
const folder = mkdtempSync(join(tmpdir(), 'quality-evidence-history-bench-'));

function records(seed: number): string {
  const random = mulberry32(seed);
  const lines: string[] = [];
  for (let endpoint = 0; endpoint < ENDPOINTS; endpoint++) {
    for (let call = 0; call < CALLS; call++)
      lines.push(
        JSON.stringify({
          endpoint: `GET /service-${endpoint}/items`,
          statusCode: random() < 0.02 ? 503 : 200,
          responseTimeMs: Math.round(20 * (1 + endpoint / 20) * Math.exp(0.3 * normal(random)) * 1000) / 1000,
        }),
      );
  }
  return `${lines.join('\n')}\n`;
}

function reportOf(seed: number) {
  const random = mulberry32(seed);
  const accumulator = new ExecutionAccumulator(750);
  for (let endpoint = 0; endpoint < ENDPOINTS; endpoint++) {
    for (let call = 0; call < CALLS; call++)
      accumulator.addExecution(
        `GET /service-${endpoint}/items`,
        200,
        Math.round(20 * (1 + endpoint / 20) * Math.exp(0.3 * normal(random)) * 1000) / 1000,
      );
  }
  return buildReport(accumulator.result(), { environment: 'bench', slowResponseThresholdMs: 750 });
}

writeFileSync(join(folder, 'in.ndjson'), records(1));
writeFileSync(
  join(folder, 'history-100.jsonl'),
  historyText(
    Array.from({ length: 100 }, (_, run) => historyRunOf(reportOf(run + 10), runIdentityOf(Date.UTC(2026, 0, 1) + run * 86_400_000, {}))),
  ),
);
for (let part = 0; part < 4; part++) {
  // Four runs of their own: four copies of one report would merge with a warning that they may be one run.
  writeFileSync(join(folder, `in-${part}.ndjson`), records(part + 2));
  const args = [command, `in-${part}.ndjson`, '--output', `part-${part}.json`, '--environment', 'bench', '--quiet'];
  const outcome = spawnSync(process.execPath, args, { cwd: folder });
  if (outcome.status !== 0) throw new Error(outcome.stderr.toString());
}

const cases: { name: string; args: () => string[] }[] = [
  { name: 'no history', args: () => ['in.ndjson', '--environment', 'bench', '--output', 'q.json', '--quiet'] },
  {
    name: 'judged against 100 runs, read only',
    args: () => [
      'in.ndjson',
      '--environment',
      'bench',
      '--output',
      'q.json',
      '--history',
      'history-100.jsonl',
      '--history-read-only',
      '--quiet',
    ],
  },
  {
    name: 'judged against 100 runs, appended (capped at 100)',
    args: () => {
      copyFileSync(join(folder, 'history-100.jsonl'), join(folder, 'history-append.jsonl'));
      return ['in.ndjson', '--environment', 'bench', '--output', 'q.json', '--history', 'history-append.jsonl', '--quiet'];
    },
  },
  {
    name: 'merge of 4 reports',
    args: () => ['merge', 'part-0.json', 'part-1.json', 'part-2.json', 'part-3.json', '--output', 'merged.json', '--quiet'],
  },
];

const times = cases.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach(({ args }, index) => {
    const argv = args();
    const started = performance.now();
    const outcome = spawnSync(process.execPath, [command, ...argv], { cwd: folder });
    times[index]!.push(performance.now() - started);
    if (outcome.status !== 0) throw new Error(outcome.stderr.toString());
  });
}
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const base = median(times[0]!);
console.log(
  `history file: ${(statSync(join(folder, 'history-100.jsonl')).size / 1048576).toFixed(1)} MiB for 100 runs of ${ENDPOINTS} endpoints × ${CALLS} calls`,
);
console.log('| case | median ms | vs no history |\n|---|---:|---:|');
cases.forEach(({ name }, index) => {
  console.log(`| ${name} | ${median(times[index]!).toFixed(0)} | ${(median(times[index]!) / base).toFixed(2)}× |`);
});
rmSync(folder, { recursive: true, force: true });
