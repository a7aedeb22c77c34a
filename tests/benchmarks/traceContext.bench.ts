// What trace context costs (npm run bench:trace, issue 37): one Playwright test of quality-evidence/test making 2,000
// back-to-back calls to a local server that answers at once, the reporter registered, with traceContext off, on, and
// on with the otlp export (a client span per call, a test span), alternating, BENCH_ROUNDS rounds (default 7) of each,
// medians. Timed twice: the calls' loop from the test's side (what a test waits), and the whole Playwright run
// (the reporter's report and export included). The shared 2-core machine: ratios of medians, never asserted.
import { createServer } from 'node:http';
import { readFile, symlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from '../support/playwrightProject.js';
import { repositoryRoot } from '../support/runProgram.js';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 2000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(request.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const config = (options: string) => `export default {
  testDir: './tests', workers: 1, retries: 0, timeout: 600000, use: { baseURL: process.env.BASE_URL },
  reporter: [['quality-evidence/reporter', { outputFile: 'out/q.json', quiet: true${options} }]],
};
`;
const project = await createPlaywrightProject({
  'off.config.ts': config(', traceContext: false'),
  'on.config.ts': config(''),
  'spans.config.ts': config(", exports: { otlp: 'out/otlp.jsonl' }"),
  'tests/calls.spec.ts': `import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from 'quality-evidence/test';
test('${CALLS} calls', async ({ request }) => {
  const started = performance.now();
  for (let call = 0; call < ${CALLS}; call++) await request.get(call % 100 === 99 ? '/fail' : '/items/' + (call % 50));
  mkdirSync('out', { recursive: true });
  writeFileSync('out/loop.json', JSON.stringify({ ms: performance.now() - started }));
});
`,
});
// The otlp export's optional peers, as a team that asks for it installs them.
await symlink(join(repositoryRoot, 'node_modules/@opentelemetry'), join(project, 'node_modules/@opentelemetry'), 'dir');

const VARIANTS = ['off', 'on', 'spans'] as const;
type Variant = (typeof VARIANTS)[number];

async function timeRun(variant: Variant): Promise<{ runSeconds: number; loopMs: number }> {
  const started = process.hrtime.bigint();
  const outcome = await runPlaywright(project, ['test', '--config', `${variant}.config.ts`], { BASE_URL: baseURL });
  if (outcome.exitCode !== 0) throw new Error(`benchmark run failed: ${outcome.stdout}${outcome.stderr}`);
  const runSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { ms } = JSON.parse(await readFile(join(project, 'out/loop.json'), 'utf8')) as { ms: number };
  return { runSeconds, loopMs: ms };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const samples: Record<Variant, { runSeconds: number; loopMs: number }[]> = { off: [], on: [], spans: [] };
await timeRun('off'); // warm: Playwright's transform cache, the server's first connections
for (let round = 0; round < ROUNDS; round++) for (const variant of VARIANTS) samples[variant].push(await timeRun(variant));
server.close();

const medians = Object.fromEntries(
  VARIANTS.map((variant) => [
    variant,
    {
      loopMs: Number(median(samples[variant].map((sample) => sample.loopMs)).toFixed(1)),
      perCallMicroseconds: Number(((median(samples[variant].map((sample) => sample.loopMs)) / CALLS) * 1000).toFixed(1)),
      runSeconds: Number(median(samples[variant].map((sample) => sample.runSeconds)).toFixed(3)),
    },
  ]),
) as Record<Variant, { loopMs: number; perCallMicroseconds: number; runSeconds: number }>;
const spansLine = (await readFile(join(project, 'out/otlp.jsonl'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
process.stdout.write(
  `${JSON.stringify(
    {
      calls: CALLS,
      rounds: ROUNDS,
      medians,
      ratios: {
        loopOnOverOff: Number((medians.on.loopMs / medians.off.loopMs).toFixed(3)),
        runOnOverOff: Number((medians.on.runSeconds / medians.off.runSeconds).toFixed(3)),
        runSpansOverOn: Number((medians.spans.runSeconds / medians.on.runSeconds).toFixed(3)),
      },
      otlpFileLines: spansLine.length,
      otlpFileBytes: spansLine.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0),
      samples,
    },
    null,
    2,
  )}\n`,
);
