// Benchmark (npm run bench): the environment-driven run over 1,000,000
// records against the floor of Node reading the same file and running one
// JSON.parse over it. Both run as whole child processes, alternating, and the
// medians are compared. Not part of the test suite: timings are reported,
// never asserted.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';

const recordCount = Number(process.env['BENCH_RECORDS'] ?? 1_000_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const runner = resolve(import.meta.dirname, '../../scripts/startEnvironment.js');

// Prints the child's peak resident memory on exit, so memory is measured the same way for both.
const reportPeakMemory = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))`;

/** A deterministic linear congruential generator: the same file on every machine. */
function* generateRecords(count: number): Generator<string> {
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
  let seed = 20_261_121;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let index = 0; index < count; index++) {
    const method = methods[Math.floor(next() * methods.length)]!;
    const endpoint = `${method} /api/orders/${Math.floor(next() * 250)}`;
    const statusCode = next() < 0.04 ? 503 : next() < 0.05 ? 404 : 200;
    const responseTimeMs = Math.round(next() * 120_000) / 100;
    yield JSON.stringify({ id: `exec-${String(index).padStart(7, '0')}`, statusCode, endpoint, responseTimeMs });
  }
}

async function writeInput(path: string): Promise<void> {
  const stream = createWriteStream(path);
  stream.write('{"executions":[\n');
  let first = true;
  for (const record of generateRecords(recordCount)) {
    if (!stream.write(`${first ? '' : ',\n'}${record}`)) await once(stream, 'drain');
    first = false;
  }
  stream.end('\n]}\n');
  await once(stream, 'finish');
}

interface Sample {
  readonly seconds: number;
  readonly peakMegabytes: number;
}

function timeChild(args: readonly string[], env: NodeJS.ProcessEnv): Sample {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--import', reportPeakMemory, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== 0) throw new Error(`benchmark child failed (exit ${String(child.status)}): ${child.stderr}`);
  const peakKilobytes = Number(/maxrss=(\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
  return { seconds, peakMegabytes: peakKilobytes / 1024 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const folder = await mkdtemp(join(tmpdir(), 'quality-evidence-bench-'));
try {
  const inputPath = join(folder, 'executions.json');
  await writeInput(inputPath);
  const megabytes = (await stat(inputPath)).size / 1e6;
  const floorArgs = ['-e', `JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))`, inputPath];
  const env = { PATH: process.env['PATH'] ?? '', QE_ENVIRONMENT: 'bench', QE_INPUT_PATH: inputPath, QE_OUTPUT_PATH: join(folder, 'summary.json') };

  const floor: Sample[] = [];
  const run: Sample[] = [];
  for (let round = 0; round < rounds; round++) {
    floor.push(timeChild(floorArgs, env));
    run.push(timeChild([runner], env));
  }
  const floorSeconds = median(floor.map((sample) => sample.seconds));
  const runSeconds = median(run.map((sample) => sample.seconds));
  const result = {
    records: recordCount,
    inputMegabytes: Number(megabytes.toFixed(1)),
    rounds,
    floorMedianSeconds: Number(floorSeconds.toFixed(3)),
    runMedianSeconds: Number(runSeconds.toFixed(3)),
    ratio: Number((runSeconds / floorSeconds).toFixed(3)),
    floorPeakMegabytes: Math.round(median(floor.map((sample) => sample.peakMegabytes))),
    runPeakMegabytes: Math.round(median(run.map((sample) => sample.peakMegabytes))),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
