import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { affectedTests, formatAffectedTests } from '../../src/contract/diff/affectedTests.js';
import { evidenceIndexOfHistory, evidenceIndexOfReport } from '../../src/contract/diff/changeEvidence.js';
import type { ContractChange } from '../../src/contract/diff/contractChange.js';
import { historyText } from '../../src/history/historyFile.js';
import { parseHistory } from '../../src/history/historyParse.js';
import { historyRunOf, runIdentityOf } from '../../src/history/historyLine.js';
import { buildReport, type QualityReport } from '../../src/report/qualityReport.js';
import { ExecutionAccumulator } from '../../src/summary/executionAccumulator.js';
import { mulberry32, normal } from '../support/latencyTrials.js';
import { repositoryRoot } from '../support/runProgram.js';

// What `affected` costs (npm run bench:affected; issue 38 asks for under a
// second on a 100-run history): 200 operations, 500 tests each calling 4 of
// them, ten changes (a response property removed from every 20th
// operation). Whole processes of the compiled command, with --report and
// with --history (100 runs), medians of 7 rounds alternated; and, in this
// process, the join alone (evidence index, ten hand-made changes, the three
// formats). The command's changes come from diffContracts: the count it
// found is printed beside its times. contract-diff, weighing the same changes by
// the same report and history, is timed alike.

const OPERATIONS = 200;
const TESTS = 500;
const CALLS_PER_TEST = 4;
const RUNS = 100;
const ROUNDS = 7;
const CHANGED = Array.from({ length: 10 }, (_, at) => at * 20);
const command = join(repositoryRoot, '.build/bin/quality-evidence.js');
const folder = mkdtempSync(join(tmpdir(), 'quality-evidence-affected-bench-'));

const label = (operation: number) => `GET /service-${operation}/items/{id}`;

function documentOf(changed: ReadonlySet<number>): string {
  const paths: Record<string, unknown> = {};
  for (let operation = 0; operation < OPERATIONS; operation++) {
    const properties: Record<string, unknown> = { id: { type: 'integer' }, name: { type: 'string' } };
    if (!changed.has(operation)) properties['email'] = { type: 'string' };
    paths[`/service-${operation}/items/{id}`] = {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'one', content: { 'application/json': { schema: { type: 'object', required: ['id'], properties } } } },
        },
      },
    };
  }
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'bench', version: '1' }, paths });
}

/** The operations test `test` calls. */
const callsOf = (test: number) => Array.from({ length: CALLS_PER_TEST }, (_, k) => (test * 7 + k * 53) % OPERATIONS);

/** A report as the Playwright reporter writes it: each endpoint's tests (at most 10 listed, testCount all of them). */
function reportOf(seed: number): QualityReport {
  const random = mulberry32(seed);
  const accumulator = new ExecutionAccumulator(750);
  const testsOf = new Map<number, number[]>();
  for (let test = 0; test < TESTS; test++)
    for (const operation of callsOf(test)) {
      testsOf.set(operation, [...(testsOf.get(operation) ?? []), test]);
      accumulator.addExecution(label(operation), 200, Math.round(20 * Math.exp(0.3 * normal(random)) * 1000) / 1000);
    }
  const report = buildReport(accumulator.result(), { environment: 'bench', slowResponseThresholdMs: 750 });
  const testOf = (test: number) => ({
    title: `suite-${test % 25}.spec.ts › test ${test}`,
    file: `suite-${test % 25}.spec.ts`,
    line: 1 + test,
    column: 3,
    calls: 1,
    failedCalls: 0,
  });
  return {
    ...report,
    endpoints: report.endpoints.map((endpoint) => {
      const tests = testsOf.get(Number(/service-(\d+)/.exec(endpoint.endpoint)![1])) ?? [];
      return { ...endpoint, tests: tests.slice(0, 10).map(testOf), testCount: tests.length };
    }),
    tests: { total: TESTS, passed: TESTS, failed: 0, flaky: 0, skipped: 0 },
  };
}

const report = reportOf(1);
writeFileSync(join(folder, 'base.json'), documentOf(new Set()));
writeFileSync(join(folder, 'head.json'), documentOf(new Set(CHANGED)));
writeFileSync(join(folder, 'quality-summary.json'), JSON.stringify(report));
writeFileSync(
  join(folder, 'history.jsonl'),
  historyText(Array.from({ length: RUNS }, (_, run) => historyRunOf(report, runIdentityOf(Date.UTC(2026, 0, 1) + run * 86_400_000, {})))),
);

const cases = [
  { name: 'startup alone (--version), for scale', args: ['--version'] },
  { name: '--report, files', args: ['--report', 'quality-summary.json'] },
  { name: '--report, json', args: ['--report', 'quality-summary.json', '--format', 'json'] },
  { name: `--history (${RUNS} runs), json`, args: ['--history', 'history.jsonl', '--format', 'json'] },
  { name: 'contract-diff --report', command: 'contract-diff', args: ['--report', 'quality-summary.json', '--output', 'changes.json'] },
  {
    name: `contract-diff --history (${RUNS} runs)`,
    command: 'contract-diff',
    args: ['--history', 'history.jsonl', '--output', 'changes.json'],
  },
];
const times = cases.map(() => [] as number[]);
const found = cases.map(() => 0);
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach(({ args, ...kind }, index) => {
    const started = performance.now();
    const argv = args[0] === '--version' ? args : ['command' in kind ? kind.command : 'affected', 'base.json', 'head.json', ...args];
    const outcome = spawnSync(process.execPath, [command, ...argv], { cwd: folder });
    times[index]!.push(performance.now() - started);
    if (outcome.status !== 0) throw new Error(outcome.stderr.toString());
    if (args.includes('json')) found[index] = (JSON.parse(outcome.stdout.toString()) as { changes: unknown[] }).changes.length;
  });
}

// The join alone, in this process, on ten hand-made changes.
const changes: ContractChange[] = CHANGED.map((operation) => ({
  rule: 'response-property-removed',
  level: 'breaking',
  operation: { method: 'GET', path: `/service-${operation}/items/{id}`, label: label(operation) },
  subject: { kind: 'responseProperty', status: '200', property: ['email'] },
  message: 'response 200: property email removed',
}));
const historyFileText = readFileSync(join(folder, 'history.jsonl'), 'utf8');
const joins = [
  { name: 'report: index + join + files/grep/json', index: () => evidenceIndexOfReport(report) },
  {
    name: `history: parse ${RUNS} runs + index + join + files/grep/json`,
    index: () => evidenceIndexOfHistory(parseHistory(historyFileText, 'h').runs),
  },
];
const joinTimes = joins.map(() => [] as number[]);
let affectedTestCount = 0;
for (let round = 0; round < ROUNDS; round++) {
  joins.forEach(({ index: indexOf }, at) => {
    const started = performance.now();
    const index = indexOf();
    const affected = affectedTests(changes, index);
    for (const format of ['files', 'grep', 'json'] as const) formatAffectedTests(affected, index, format);
    joinTimes[at]!.push(performance.now() - started);
    if (at === 0) affectedTestCount = affected.tests.length;
  });
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(
  `${OPERATIONS} operations, ${TESTS} tests × ${CALLS_PER_TEST} operations, ${CHANGED.length} changed; report ` +
    `${(statSync(join(folder, 'quality-summary.json')).size / 1048576).toFixed(1)} MiB, history ` +
    `${(statSync(join(folder, 'history.jsonl')).size / 1048576).toFixed(1)} MiB (${RUNS} runs); medians of ${ROUNDS}`,
);
console.log('| whole command | median ms | changes diffContracts found |\n|---|---:|---:|');
cases.forEach(({ name, args }, index) => {
  console.log(`| ${name} | ${median(times[index]!).toFixed(0)} | ${args.includes('json') ? found[index] : '–'} |`);
});
console.log(
  `| in this process, ${CHANGED.length} hand-made changes (${affectedTestCount} tests listed for them) | median ms |\n|---|---:|`,
);
joins.forEach(({ name }, at) => {
  console.log(`| ${name} | ${median(joinTimes[at]!).toFixed(1)} |`);
});
rmSync(folder, { recursive: true, force: true });
