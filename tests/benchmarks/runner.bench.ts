// Benchmark (npm run bench): the whole environment-driven run (process start
// to report written) over deterministic inputs, against the floor of Node
// reading the same file and running one JSON.parse over it (where a string
// can hold the file), and against jq computing the same five numbers (where
// jq is installed). Every command runs as a child process, alternating round
// by round, and the medians are compared. Not part of the test suite:
// timings are reported, never asserted.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const largeRounds = Number(process.env['BENCH_LARGE_ROUNDS'] ?? 3);
const only = process.env['BENCH_ONLY']?.split(',');
const runner = resolve(import.meta.dirname, '../../scripts/startEnvironment.js');

// Prints the child's peak resident memory on exit, so memory is measured the same way for every Node command.
const reportPeakMemory = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))`;

/** A deterministic linear congruential generator: the same files on every machine; 200 endpoints. */
function* generateRecords(count: number, padding: number): Generator<string> {
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
  let seed = 20_261_121;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pad = 'x'.repeat(padding);
  for (let index = 0; index < count; index++) {
    const method = methods[Math.floor(next() * methods.length)]!;
    const endpoint = `${method} /api/orders/${Math.floor(next() * 40)}`;
    const statusCode = next() < 0.04 ? 503 : next() < 0.05 ? 404 : 200;
    const responseTimeMs = Math.round(next() * 120_000) / 100;
    yield JSON.stringify({ id: `exec-${String(index).padStart(7, '0')}${pad}`, statusCode, endpoint, responseTimeMs });
  }
}

async function writeLines(path: string, lines: Iterable<string>, open: string, separator: string, close: string): Promise<void> {
  const stream = createWriteStream(path);
  stream.write(open);
  let first = true;
  for (const line of lines) {
    if (!stream.write(`${first ? '' : separator}${line}`)) await once(stream, 'drain');
    first = false;
  }
  stream.end(close);
  await once(stream, 'finish');
}

function* harEntries(count: number): Generator<string> {
  for (const record of generateRecords(count, 0)) {
    const { statusCode, endpoint, responseTimeMs } = JSON.parse(record) as { statusCode: number; endpoint: string; responseTimeMs: number };
    const [method, path] = endpoint.split(' ');
    yield JSON.stringify({
      startedDateTime: '2026-11-23T08:00:00.000Z',
      time: responseTimeMs,
      request: { method, url: `http://127.0.0.1:3000${path ?? '/'}?page=2`, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: statusCode, statusText: '', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 2, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: 2 },
      cache: {},
      timings: { send: 0, wait: responseTimeMs, receive: 0 },
    });
  }
}

interface Sample {
  readonly seconds: number;
  readonly peakMegabytes: number | undefined;
}

function timeCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv, expectedStatus = 0): Sample | undefined {
  const isNode = command === process.execPath;
  const started = process.hrtime.bigint();
  const child = spawnSync(command, isNode ? ['--import', reportPeakMemory, ...args] : args, { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== expectedStatus) return undefined;
  const peakKilobytes = Number(/maxrss=(\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
  return { seconds, peakMegabytes: Number.isNaN(peakKilobytes) ? undefined : peakKilobytes / 1024 };
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function hasJq(): boolean {
  return spawnSync('jq', ['--version']).status === 0;
}

// jq computing the five SPEC numbers, the way a user would by hand.
const JQ_SUMMARY =
  '{executionCount: length, failedExecutionCount: (map(select(.statusCode >= 400)) | length), slowExecutionCount: (map(select(.responseTimeMs > 750)) | length), ' +
  'failureCountByEndpoint: (map(select(.statusCode >= 400)) | group_by(.endpoint) | map({key: .[0].endpoint, value: length}) | from_entries), ' +
  'slowEndpoints: (map(select(.responseTimeMs > 750) | .endpoint) | unique)}';

interface Input {
  readonly name: string;
  readonly records: number;
  readonly path: string;
  readonly jqArgs: readonly string[] | undefined;
  readonly rounds: number;
  /** Every record invalid (a status written as text): the run must fail, exit 65, at least as fast as the valid input of the same size. */
  readonly invalid?: boolean;
}

const folder = await mkdtemp(join(tmpdir(), 'quality-evidence-bench-'));
try {
  const at = (name: string) => join(folder, name);
  const inputs: Input[] = [
    { name: '1M JSON document', records: 1_000_000, path: at('1m.json'), jqArgs: [`.executions | ${JQ_SUMMARY}`], rounds },
    { name: '1M NDJSON', records: 1_000_000, path: at('1m.ndjson'), jqArgs: ['-s', JQ_SUMMARY], rounds },
    { name: '1M JSON document, every record invalid (exit 65)', records: 1_000_000, path: at('1m-invalid.json'), jqArgs: undefined, rounds, invalid: true },
    { name: '5M JSON document (past the string limit)', records: 5_000_000, path: at('5m.json'), jqArgs: undefined, rounds: largeRounds },
    { name: '5M NDJSON', records: 5_000_000, path: at('5m.ndjson'), jqArgs: undefined, rounds: largeRounds },
    { name: '10k-entry HAR', records: 10_000, path: at('10k.har'), jqArgs: undefined, rounds },
  ].filter((input) => only === undefined || only.some((word) => input.name.includes(word)));

  for (const input of inputs) {
    if (input.path.endsWith('.har')) await writeLines(input.path, harEntries(input.records), '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[\n', ',\n', '\n]}}\n');
    else if (input.path.endsWith('.json')) {
      // The 5M document's records are padded so that the file is past V8's string limit (about 512 MiB).
      const records = generateRecords(input.records, input.records > 1_000_000 ? 28 : 0);
      // The invalid twin: the same records with the status as text ("200" for 200), two bytes longer each.
      const lines = input.invalid === true ? (function* () { for (const line of records) yield line.replace(/"statusCode":(\d+)/, '"statusCode":"$1"'); })() : records;
      await writeLines(input.path, lines, '{"executions":[\n', ',\n', '\n]}\n');
    } else await writeLines(input.path, generateRecords(input.records, 0), '', '\n', '\n');
  }

  const jq = hasJq();
  const rows: string[] = [];
  for (const input of inputs) {
    const megabytes = (await stat(input.path)).size / 1e6;
    const env = { PATH: process.env['PATH'] ?? '', QE_ENVIRONMENT: 'bench', QE_INPUT_PATH: input.path, QE_OUTPUT_PATH: join(folder, 'summary.json') };
    const floorArgs = ['-e', `JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))`, input.path];
    const floor: Sample[] = [];
    const run: Sample[] = [];
    const jqRuns: Sample[] = [];
    for (let round = 0; round < input.rounds; round++) {
      if (!input.path.endsWith('.ndjson')) {
        const sample = timeCommand(process.execPath, floorArgs, env);
        if (sample !== undefined) floor.push(sample);
      }
      const sample = timeCommand(process.execPath, [runner], env, input.invalid === true ? 65 : 0);
      if (sample === undefined) throw new Error(`the run over ${input.name} failed`);
      run.push(sample);
      if (jq && input.jqArgs !== undefined) {
        const jqSample = timeCommand('jq', [...input.jqArgs, input.path], env);
        if (jqSample !== undefined) jqRuns.push(jqSample);
      }
    }
    const floorSeconds = median(floor.map((sample) => sample.seconds));
    const runSeconds = median(run.map((sample) => sample.seconds))!;
    const perRecordMicroseconds = (runSeconds / input.records) * 1e6;
    const cell = (value: number | undefined, digits: number) => (value === undefined ? 'n/a' : value.toFixed(digits));
    rows.push(
      `| ${input.name} | ${megabytes.toFixed(0)} | ${cell(floorSeconds, 2)} | ${cell(median(floor.map((sample) => sample.peakMegabytes ?? Number.NaN)), 0)} | ` +
        `${runSeconds.toFixed(2)} | ${cell(median(run.map((sample) => sample.peakMegabytes ?? Number.NaN)), 0)} | ${perRecordMicroseconds.toFixed(2)} | ` +
        `${floorSeconds === undefined ? 'n/a' : `${(runSeconds / floorSeconds).toFixed(2)}x`} | ${cell(median(jqRuns.map((sample) => sample.seconds)), 2)} |`,
    );
  }
  process.stdout.write(
    [
      `Node ${process.version}, ${availableParallelism()} cores; medians of ${rounds} alternating rounds (${largeRounds} for 5M inputs); floor = read the file + one JSON.parse (n/a: the file is past V8's string limit, or is NDJSON).`,
      '',
      '| input | MB | floor s | floor peak MB | run s | run peak MB | run µs/record | run / floor | jq s |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}
