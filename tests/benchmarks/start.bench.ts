// Benchmark (npm run bench:start, issue 40): what starting costs. Timings are reported, never asserted
// (tests/lazyLoading.spec.ts asserts what is loaded, by name).
//
// 1. The command over a one-record input, as a whole process (wall seconds and peak resident memory): with the default
//    formats and with only json, with and without --openapi (fixtures/openapi/openapi-3.0-petstore-expanded.yaml),
//    beside a bare `node -e 0`; BENCH_ROUNDS alternating rounds (default 11), medians. Then, once each, the modules the
//    process loaded (ours, zod's, the rest). QE_BENCH_COMMAND names another build's command (an older commit's), run
//    beside each case, alternated.
// 2. A Playwright test worker: one test making BENCH_CALLS (default 500) calls to a local server through `request`:
//    plain @playwright/test with no reporter; quality-evidence/test with the reporter; the same with the contract
//    (the reporter's openapi option: every call's body checked). Timed from the test's side: when the worker had
//    loaded the spec file (milliseconds since the worker process started), the first call, the rest per call, the
//    worker's peak resident memory at the test's end; and the whole Playwright run. Then the modules each worker loaded.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createModuleListing, packagesIn } from '../support/loadedModules.js';
import { createPlaywrightProject, runPlaywright } from '../support/playwrightProject.js';
import { createTemporaryFolder, removeTemporaryFolders, repositoryRoot } from '../support/runProgram.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 11);
const WORKER_ROUNDS = Number(process.env['BENCH_WORKER_ROUNDS'] ?? 5);
const CALLS = Number(process.env['BENCH_CALLS'] ?? 500);
const only = process.env['BENCH_ONLY']?.split(',');
const startedAt = new Date();
const loadAtStart = loadavg();
const contract = join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml');
const command = join(repositoryRoot, '.build/bin/quality-evidence.js');
const otherCommand = process.env['QE_BENCH_COMMAND'];

// Prints the child's peak resident memory on exit, as npm run bench measures every Node command.
const reportPeakMemory = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(' ');
const lines: string[] = [
  `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `load average ${load(loadAtStart)} at the start, ${startedAt.toISOString()}`,
  '',
];

// Part 1: the command's start.
if (only === undefined || only.includes('command')) {
  const folder = await createTemporaryFolder(
    { 'one-record.json': '[{ "endpoint": "GET /pets/1", "statusCode": 200, "responseTimeMs": 12 }]\n' },
    'start',
  );
  const input = join(folder, 'one-record.json');
  const output = ['--output', join(folder, 'out/quality-summary.json')];
  const flags: Readonly<Record<string, readonly string[]>> = {
    'default formats': [],
    'json only': ['--formats', 'json'],
    '--openapi, default formats': ['--openapi', contract],
    '--openapi, json only': ['--openapi', contract, '--formats', 'json'],
  };
  // With QE_BENCH_COMMAND, each case runs with that build's command too, right before this one's: before and after, alternated.
  const variants: Record<string, readonly string[]> = { 'node -e 0': ['-e', '0'] };
  for (const [name, given] of Object.entries(flags)) {
    if (otherCommand !== undefined) variants[`${name} (QE_BENCH_COMMAND)`] = [otherCommand, input, ...output, ...given];
    variants[name] = [command, input, ...output, ...given];
  }
  const samples = new Map(Object.keys(variants).map((name) => [name, [] as { seconds: number; megabytes: number }[]]));
  const env = { PATH: process.env['PATH'] ?? '', CI: '' };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(variants)) {
      const started = process.hrtime.bigint();
      const child = spawnSync(process.execPath, ['--import', reportPeakMemory, ...args], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (child.status !== 0) throw new Error(`${name} failed: ${child.stderr}`);
      samples.get(name)!.push({ seconds, megabytes: Number(/maxrss=(\d+)/.exec(child.stderr)![1]) / 1024 });
    }
  }
  const bare = median(samples.get('node -e 0')!.map((sample) => sample.seconds));
  lines.push(
    `The command over a one-record input: medians of ${ROUNDS} alternating rounds.`,
    '',
    '| run | wall ms | over node -e 0, ms | peak MB | modules: ours | zod | other packages | packages | ICU locale data |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const [name, args] of Object.entries(variants)) {
    const listing = await createModuleListing(join(folder, `modules-${Object.keys(variants).indexOf(name)}`));
    spawnSync(process.execPath, args, { env: { ...env, NODE_OPTIONS: listing.nodeOptions }, stdio: 'ignore' });
    const listed = [...(await listing.read()).values()].flat();
    const paths = listed.filter((line) => line.startsWith('/'));
    const icu = listed.some((line) => line.startsWith('intl:')) ? 'yes' : 'no';
    const ours = paths.filter((path) => path.includes('/.build/')).length;
    const zod = paths.filter((path) => path.includes('/node_modules/zod/')).length;
    const packages = [...packagesIn(paths)].filter((name) => name !== 'zod').sort();
    const seconds = median(samples.get(name)!.map((sample) => sample.seconds));
    const megabytes = median(samples.get(name)!.map((sample) => sample.megabytes));
    lines.push(
      `| ${name} | ${(seconds * 1000).toFixed(0)} | ${((seconds - bare) * 1000).toFixed(0)} | ${megabytes.toFixed(0)} | ` +
        `${ours} | ${zod} | ${paths.length - ours - zod} | ${packages.join(', ')} | ${icu} |`,
    );
  }
  lines.push('');
}

// Part 2: the reporter's cost in a test worker.
if (only === undefined || only.includes('worker')) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex"}'));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = (reporter: string) =>
    `export default { testDir: './tests', testMatch: process.env.SPEC, workers: 1, retries: 0, timeout: 600000, ` +
    `use: { baseURL: process.env.BASE_URL }, reporter: ${reporter} };\n`;
  const spec = (module: string) => `const loadedMs = performance.now();
import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from '${module}';
test('${CALLS} calls', async ({ request }) => {
  const started = performance.now();
  await request.get('/pets/0');
  const firstMs = performance.now() - started;
  for (let call = 1; call < ${CALLS}; call++) await request.get('/pets/' + (call % 50));
  const loopMs = performance.now() - started;
  mkdirSync('out', { recursive: true });
  writeFileSync('out/worker.json', JSON.stringify({ loadedMs, firstMs, loopMs, maxRssKib: process.resourceUsage().maxRSS }));
});
`;
  const project = await createPlaywrightProject({
    'plain.config.ts': config(`[['null']]`),
    'recorded.config.ts': config(`[['quality-evidence/reporter', { outputFile: 'out/q.json', quiet: true }]]`),
    'contract.config.ts': config(
      `[['quality-evidence/reporter', { outputFile: 'out/q.json', quiet: true, openapi: ${JSON.stringify(contract)} }]]`,
    ),
    'tests/plain.spec.ts': spec('@playwright/test'),
    'tests/recorded.spec.ts': spec('quality-evidence/test'),
  });
  const VARIANTS = ['plain', 'recorded', 'contract'] as const;
  type Variant = (typeof VARIANTS)[number];
  interface WorkerSample {
    readonly loadedMs: number;
    readonly firstMs: number;
    readonly loopMs: number;
    readonly maxRssKib: number;
    readonly runSeconds: number;
  }
  const run = async (variant: Variant, nodeOptions?: string): Promise<WorkerSample> => {
    const started = process.hrtime.bigint();
    const outcome = await runPlaywright(project, ['test', '--config', `${variant}.config.ts`], {
      BASE_URL: baseURL,
      SPEC: variant === 'plain' ? 'plain.spec.ts' : 'recorded.spec.ts',
      ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
    });
    if (outcome.exitCode !== 0) throw new Error(`${variant} failed: ${outcome.stdout}${outcome.stderr}`);
    const runSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { ...(JSON.parse(await readFile(join(project, 'out/worker.json'), 'utf8')) as Omit<WorkerSample, 'runSeconds'>), runSeconds };
  };
  const samples: Record<Variant, WorkerSample[]> = { plain: [], recorded: [], contract: [] };
  await run('recorded'); // warm: Playwright's transform cache
  for (let round = 0; round < WORKER_ROUNDS; round++) for (const variant of VARIANTS) samples[variant].push(await run(variant));
  const checked = JSON.parse(await readFile(join(project, 'out/q.json'), 'utf8')) as { executionCount: number; contract?: unknown };
  lines.push(
    `A test worker: one test, ${CALLS} calls through \`request\` to a local server; medians of ${WORKER_ROUNDS} alternating rounds ` +
      `(the contract run's report: ${checked.executionCount} executions, contract section ${checked.contract === undefined ? 'absent' : 'present'}).`,
    '',
    '| run | spec loaded, ms after the worker started | first call ms | later calls µs each | worker peak MB | whole run s | ' +
      'worker modules: ours | packages of note |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const variant of VARIANTS) {
    const of = (pick: (sample: WorkerSample) => number) => median(samples[variant].map(pick));
    const listing = await createModuleListing(join(project, `modules-${variant}`));
    await mkdir(join(project, 'out'), { recursive: true });
    await run(variant, listing.nodeOptions);
    const workers = [...(await listing.read()).values()].filter((paths) => paths.some((path) => path.includes('/playwright/lib/worker/')));
    const paths = workers.flat().filter((line) => line.startsWith('/'));
    const ours = paths.filter((path) => path.includes('/quality-evidence/.build/')).length;
    const notable = [...packagesIn(paths)].filter((name) => !/^(@playwright\/test|playwright|playwright-core)$/.test(name)).sort();
    lines.push(
      `| ${variant} | ${of((s) => s.loadedMs).toFixed(0)} | ${of((s) => s.firstMs).toFixed(1)} | ` +
        `${((of((s) => s.loopMs - s.firstMs) / (CALLS - 1)) * 1000).toFixed(0)} | ${(of((s) => s.maxRssKib) / 1024).toFixed(0)} | ` +
        `${of((s) => s.runSeconds).toFixed(2)} | ${ours} | ${notable.join(', ') || 'none'} |`,
    );
  }
  server.close();
  lines.push('');
}

lines.push(`load average ${load(loadavg())} at the end`, '');
process.stdout.write(`${lines.join('\n')}\n`);
await removeTemporaryFolders();
