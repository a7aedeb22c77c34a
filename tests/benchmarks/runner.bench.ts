// Benchmark (npm run bench): the whole environment-driven run (process start
// to report written) over deterministic inputs, against the floor of Node
// reading the same file and running one JSON.parse over it (where a string
// can hold the file), against jq computing the same five numbers (where jq is
// installed), and against DuckDB computing the per-endpoint statistics the
// report holds (where @duckdb/node-api, a devDependency, loads). Every command
// runs as a child process, alternating round by round, and the medians are
// compared. After the rounds, DuckDB's per-endpoint numbers are checked
// against the report (not timed). Not part of the test suite: timings are
// reported, never asserted.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const largeRounds = Number(process.env['BENCH_LARGE_ROUNDS'] ?? 3);
const only = process.env['BENCH_ONLY']?.split(',');
// The bundle npm run start:environment runs (scripts/build.mjs, PROGRAMS).
const runner = resolve(import.meta.dirname, '../../bin/startEnvironment.js');
const startedAt = new Date();
const loadAtStart = loadavg();

// Prints the child's peak resident memory on exit, so memory is measured the same way for every Node command: the
// process's high-water mark (VmHWM, every thread's memory counted, as /usr/bin/time -v reports it), read by the main
// thread once the worker threads are gone; where /proc is missing, getrusage's maxRSS (the process's too).
const PEAK_MEMORY_HOOK = [
  "import { readFileSync } from 'node:fs';",
  "import { isMainThread } from 'node:worker_threads';",
  'const peak = () => { try { return Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]); }',
  '  catch { return process.resourceUsage().maxRSS; } };',
  "if (isMainThread) process.on('exit', () => process.stderr.write('maxrss=' + peak() + '\\n'));",
].join('\n');
const reportPeakMemory = `data:text/javascript,${encodeURIComponent(PEAK_MEMORY_HOOK)}`;
/** A build to time beside this one, round by round (BENCH_BEFORE: its compiled scripts/startEnvironment.js): before and after on the same files. */
const before = process.env['BENCH_BEFORE'];

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator, period 2^32) in exact 32-bit
 * integer arithmetic: Math.imul and >>> 0, no float rounding, so the inputs are
 * the same on every machine and do not repeat within 5M records.
 */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d_2b_79_f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
}

const SEED = 20_261_121;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
/** responseTimeMs is a whole number of hundredths in [0, 1200] ms. */
const HUNDREDTHS = 120_001;

/** The endpoints an input spreads its records over, and how. */
interface Shape {
  readonly endpoints: number;
  readonly label: (endpointIndex: number) => string;
  /** Each endpoint gets exactly this many records, in a shuffled order; otherwise each record draws its endpoint. */
  readonly recordsPerEndpoint?: number;
}

/** 200 endpoints: 5 methods × /api/orders/0..39. */
const ORDERS: Shape = { endpoints: 200, label: (index) => `${METHODS[Math.floor(index / 40)]!} /api/orders/${index % 40}` };
/** 50,000 endpoints (the most one run accepts): 5 methods × /api/items/0..9999, 10 records each, interleaved. */
const ITEMS: Shape = {
  endpoints: 50_000,
  label: (index) => `${METHODS[index % 5]!} /api/items/${Math.floor(index / 5)}`,
  recordsPerEndpoint: 10,
};

/** What a generated input holds, counted while it is written, so a reader can see the data does not repeat. */
interface Contents {
  records: number;
  readonly endpoints: Set<number>;
  /** endpointIndex * 200,000 + hundredths: one small integer per distinct (endpoint, responseTimeMs) pair. */
  readonly pairs: Set<number>;
}

const newContents = (): Contents => ({ records: 0, endpoints: new Set(), pairs: new Set() });

/** Deterministic records from a fixed seed: status 503 4%, 404 5%, else 200; responseTimeMs uniform in [0, 1200] with 2 decimals. */
function* generateRecords(count: number, shape: Shape, padding: number, contents: Contents): Generator<string> {
  const next = mulberry32(SEED);
  // Integers are drawn from the 32-bit output by remainder (the bias is below n / 2^32).
  const below = (n: number): number => next() % n;
  let order: Int32Array | undefined;
  if (shape.recordsPerEndpoint !== undefined) {
    if (count !== shape.endpoints * shape.recordsPerEndpoint)
      throw new Error(`${count} records cannot give ${shape.endpoints} endpoints ${shape.recordsPerEndpoint} each`);
    order = new Int32Array(count);
    for (let index = 0; index < count; index++) order[index] = index % shape.endpoints;
    // Fisher–Yates, so an endpoint's records are spread through the file, not grouped.
    for (let index = count - 1; index > 0; index--) {
      const other = below(index + 1);
      const swap = order[index]!;
      order[index] = order[other]!;
      order[other] = swap;
    }
  }
  const pad = 'x'.repeat(padding);
  for (let index = 0; index < count; index++) {
    const endpointIndex = order === undefined ? below(shape.endpoints) : order[index]!;
    const roll = below(100);
    const statusCode = roll < 4 ? 503 : roll < 9 ? 404 : 200;
    const hundredths = below(HUNDREDTHS);
    contents.records++;
    contents.endpoints.add(endpointIndex);
    contents.pairs.add(endpointIndex * 200_000 + hundredths);
    yield JSON.stringify({
      id: `exec-${String(index).padStart(7, '0')}${pad}`,
      statusCode,
      endpoint: shape.label(endpointIndex),
      responseTimeMs: hundredths / 100,
    });
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

function* harEntries(count: number, contents: Contents): Generator<string> {
  for (const record of generateRecords(count, ORDERS, 0, contents)) {
    const { statusCode, endpoint, responseTimeMs } = JSON.parse(record) as { statusCode: number; endpoint: string; responseTimeMs: number };
    const [method, path] = endpoint.split(' ');
    yield JSON.stringify({
      startedDateTime: '2026-11-23T08:00:00.000Z',
      time: responseTimeMs,
      request: {
        method,
        url: `http://127.0.0.1:3000${path ?? '/'}?page=2`,
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: statusCode,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: [],
        cookies: [],
        content: { size: 2, mimeType: 'application/json' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 2,
      },
      cache: {},
      timings: { send: 0, wait: responseTimeMs, receive: 0 },
    });
  }
}

interface Sample {
  readonly seconds: number;
  readonly peakMegabytes: number | undefined;
}

function timeCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  expectedStatus = 0,
  onFailure?: (stderr: string) => void,
): Sample | undefined {
  const isNode = command === process.execPath;
  const started = process.hrtime.bigint();
  // stdout goes to /dev/null: nothing reads it, and the run prints its whole report there (77 MB for 50,000
  // endpoints, past any sensible maxBuffer, which would kill the child).
  const child = spawnSync(command, isNode ? ['--import', reportPeakMemory, ...args] : args, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== expectedStatus) {
    const why = child.error?.message ?? `exit ${child.status ?? child.signal ?? 'unknown'}`;
    onFailure?.(`${child.stderr.replace(/maxrss=\d+\n/g, '').trim()} (${why})`);
    return undefined;
  }
  // One line, the main thread's at its exit (the largest, should an older hook have printed one per thread).
  const printed = [...child.stderr.matchAll(/maxrss=(\d+)/g)].map((match) => Number(match[1]));
  const peakKilobytes = printed.length === 0 ? Number.NaN : Math.max(...printed);
  return { seconds, peakMegabytes: Number.isNaN(peakKilobytes) ? undefined : peakKilobytes / 1024 };
}

/** The before build's median seconds and peak, and the medians of the round-by-round ratios of this build to it. */
function beforeCells(beforeRuns: readonly Sample[], runs: readonly Sample[]): string {
  const ratios = (of: (sample: Sample) => number | undefined) =>
    median(
      beforeRuns.flatMap((beforeSample, round) => {
        const [after, earlier] = [of(runs[round]!), of(beforeSample)];
        return after === undefined || earlier === undefined ? [] : [after / earlier];
      }),
    );
  const cell = (value: number | undefined, digits: number, suffix = '') =>
    value === undefined ? 'n/a' : `${value.toFixed(digits)}${suffix}`;
  return [
    cell(median(beforeRuns.map((sample) => sample.seconds)), 2),
    cell(median(beforeRuns.map((sample) => sample.peakMegabytes ?? Number.NaN)), 0),
    cell(
      ratios((sample) => sample.seconds),
      2,
      'x',
    ),
    cell(
      ratios((sample) => sample.peakMegabytes),
      2,
      'x',
    ),
  ].join(' | ');
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
  '{executionCount: length, failedExecutionCount: (map(select(.statusCode >= 400)) | length), slowExecutionCount: ' +
  '(map(select(.responseTimeMs > 750)) | length), ' +
  'failureCountByEndpoint: (map(select(.statusCode >= 400)) | group_by(.endpoint) | map({key: .[0].endpoint, value: length}) | from_entries), ' +
  'slowEndpoints: (map(select(.responseTimeMs > 750) | .endpoint) | unique)}';

// DuckDB computing what the report holds per endpoint and in total, in one
// query (GROUPING SETS) over the input file: count, failures, slow,
// percentiles (quantile_disc takes rank max(1, ceil(q × n)), the report's
// nearest rank), max, mean and the count per status code. A plain script the
// benchmark writes into its temporary folder and runs with node, given the
// URL of @duckdb/node-api, so that the benchmark still builds and runs (n/a)
// when the package cannot be loaded. An in-memory database with DuckDB's
// defaults: as many threads as cores, memory_limit 80% of RAM.
//   node duckdb-summary.mjs <module URL> --version
//   node duckdb-summary.mjs <module URL> <input> ndjson|json <maximum_object_size> <output.json>
const DUCKDB_SCRIPT = String.raw`import { writeFileSync } from 'node:fs';
const [moduleUrl, input, format, maximumObjectSize, output] = process.argv.slice(2);
const loaded = await import(moduleUrl);
const { DuckDBInstance, version } = loaded.DuckDBInstance === undefined ? loaded.default : loaded;
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const threads = (await connection.runAndReadAll("SELECT current_setting('threads') AS threads")).getRowObjectsJS()[0].threads;
if (input === '--version') {
  process.stdout.write(JSON.stringify({ version: version(), threads: Number(threads) }));
  process.exit(0);
}
const quote = (text) => "'" + text.replaceAll("'", "''") + "'";
const columns = "endpoint VARCHAR, statusCode INTEGER, responseTimeMs DOUBLE";
const records = format === 'ndjson'
  ? "read_json(" + quote(input) + ", format = 'newline_delimited', columns = {endpoint: 'VARCHAR', statusCode: 'INTEGER', responseTimeMs: 'DOUBLE'})"
  : "(SELECT unnest(executions, recursive := true) FROM read_json(" + quote(input) +
    ", format = 'unstructured', maximum_object_size = " + Number(maximumObjectSize) +
    ", columns = {executions: 'STRUCT(" + columns + ")[]'}))";
const reader = await connection.runAndReadAll(
  "SELECT grouping(endpoint) AS total, endpoint, count(*) AS count, count(*) FILTER (WHERE statusCode >= 400) AS failures, " +
    "count(*) FILTER (WHERE responseTimeMs > 750) AS slow, quantile_disc(responseTimeMs, [0.5, 0.9, 0.95, 0.99]) AS percentiles, " +
    "max(responseTimeMs) AS max, avg(responseTimeMs) AS mean, histogram(statusCode) AS status_codes " +
    "FROM " + records + " GROUP BY GROUPING SETS ((endpoint), ()) ORDER BY total DESC, endpoint",
);
const rows = reader.getRowObjectsJS().map((row) => ({
  endpoint: Number(row.total) === 1 ? null : row.endpoint,
  count: Number(row.count),
  failures: Number(row.failures),
  slow: Number(row.slow),
  percentiles: row.percentiles.map(Number),
  max: row.max,
  mean: row.mean,
  statusCodes: Object.fromEntries(row.status_codes.map(({ key, value }) => [String(key), Number(value)])),
}));
writeFileSync(output, JSON.stringify(rows));
`;

/** One row of DuckDB's answer; `endpoint` null for the whole input. */
interface DuckDbRow {
  readonly endpoint: string | null;
  readonly count: number;
  readonly failures: number;
  readonly slow: number;
  readonly percentiles: readonly number[];
  readonly max: number;
  readonly mean: number;
  readonly statusCodes: Readonly<Record<string, number>>;
}

/** The parts of quality-summary.json the check reads (docs/report-format.md). */
interface ReportStatistics {
  readonly executionCount: number;
  readonly failedExecutionCount: number;
  readonly slowExecutionCount: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly responseTimeMs: {
    readonly mean: number | null;
    readonly p50: number | null;
    readonly p90: number | null;
    readonly p95: number | null;
    readonly p99: number | null;
    readonly max: number | null;
  };
}
interface Report extends ReportStatistics {
  readonly slowResponseThresholdMs: number;
  readonly endpoints: readonly (ReportStatistics & { readonly endpoint: string })[];
}

/** The first difference between DuckDB's row and the report's statistics, or undefined when they agree. */
function difference(row: DuckDbRow, report: ReportStatistics): string | undefined {
  const times = report.responseTimeMs;
  const pairs: [string, unknown, unknown][] = [
    ['count', row.count, report.executionCount],
    ['failures', row.failures, report.failedExecutionCount],
    ['slow', row.slow, report.slowExecutionCount],
    [
      'status codes',
      JSON.stringify(Object.entries(row.statusCodes).sort(([a], [b]) => Number(a) - Number(b))),
      JSON.stringify(Object.entries(report.statusCodes)),
    ],
    ['p50', row.percentiles[0], times.p50],
    ['p90', row.percentiles[1], times.p90],
    ['p95', row.percentiles[2], times.p95],
    ['p99', row.percentiles[3], times.p99],
    ['max', row.max, times.max],
  ];
  for (const [name, duckdb, ours] of pairs) if (duckdb !== ours) return `${name}: DuckDB ${String(duckdb)}, the report ${String(ours)}`;
  // The report's mean is rounded to the microsecond (3 decimals) from an exact sum; DuckDB's is a float sum in any order.
  if (times.mean === null || Math.abs(row.mean - times.mean) > 0.0005 + 1e-9)
    return `mean: DuckDB ${row.mean}, the report ${String(times.mean)}`;
  return undefined;
}

async function agreement(duckdbOutput: string, reportPath: string): Promise<string> {
  const rows = JSON.parse(await readFile(duckdbOutput, 'utf8')) as DuckDbRow[];
  const report = JSON.parse(await readFile(reportPath, 'utf8')) as Report;
  if (report.slowResponseThresholdMs !== 750) return `the report's slow threshold is ${report.slowResponseThresholdMs} ms, DuckDB's 750 ms`;
  const byEndpoint = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint]));
  const endpointRows = rows.filter((row) => row.endpoint !== null);
  if (endpointRows.length !== report.endpoints.length)
    return `DuckDB finds ${endpointRows.length} endpoints, the report ${report.endpoints.length}`;
  for (const row of rows) {
    const ours = row.endpoint === null ? report : byEndpoint.get(row.endpoint);
    if (ours === undefined) return `${row.endpoint ?? ''} is in DuckDB's answer, not in the report`;
    const found = difference(row, ours);
    if (found !== undefined) return `they disagree on ${row.endpoint ?? 'the whole input'}, ${found}`;
  }
  return (
    `DuckDB and the report agree on ${endpointRows.length.toLocaleString('en-US')} endpoints and the whole input ` +
    "(count, failures, slow, status codes, p50, p90, p95, p99, max; mean to the report's 3 decimals)"
  );
}

/** Whether @duckdb/node-api loads, and DuckDB's version and threads; why not otherwise. */
function probeDuckDb(script: string): { url: string; version: string; threads: number } | { failure: string } {
  let url: string;
  try {
    url = import.meta.resolve('@duckdb/node-api');
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
  const child = spawnSync(process.execPath, [script, url, '--version'], { encoding: 'utf8' });
  if (child.status !== 0)
    return {
      failure:
        child.stderr
          .trim()
          .split('\n')
          .find((line) => /Error/.test(line)) ?? `exit ${child.status ?? child.signal ?? 'unknown'}`,
    };
  const { version, threads } = JSON.parse(child.stdout) as { version: string; threads: number };
  return { url, version, threads };
}

async function nodeApiVersion(url: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(fileURLToPath(url), '../../package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}

interface Input {
  readonly name: string;
  readonly records: number;
  readonly shape: Shape;
  readonly path: string;
  readonly jqArgs: readonly string[] | undefined;
  /** How DuckDB reads the file; undefined: DuckDB is not timed on it. */
  readonly duckdb: 'ndjson' | 'json' | undefined;
  readonly rounds: number;
  /** Every record invalid (a status written as text): the run must fail, exit 65, at least as fast as the valid input of the same size. */
  readonly invalid?: boolean;
}

const folder = await mkdtemp(join(tmpdir(), 'quality-evidence-bench-'));
try {
  const at = (name: string) => join(folder, name);
  const allInputs: Input[] = [
    {
      name: '1M JSON document',
      records: 1_000_000,
      shape: ORDERS,
      path: at('1m.json'),
      jqArgs: [`.executions | ${JQ_SUMMARY}`],
      duckdb: 'json',
      rounds,
    },
    { name: '1M NDJSON', records: 1_000_000, shape: ORDERS, path: at('1m.ndjson'), jqArgs: ['-s', JQ_SUMMARY], duckdb: 'ndjson', rounds },
    {
      name: '1M JSON document, every record invalid (exit 65)',
      records: 1_000_000,
      shape: ORDERS,
      path: at('1m-invalid.json'),
      jqArgs: undefined,
      duckdb: undefined,
      rounds,
      invalid: true,
    },
    // DuckDB reads a JSON document as one object of at most maximum_object_size bytes (a UINTEGER, so under 4 GiB): the
    // 624 MB document fits; if DuckDB still cannot read it, its columns say n/a and the reason is printed under the table.
    {
      name: '5M JSON document (past the string limit)',
      records: 5_000_000,
      shape: ORDERS,
      path: at('5m.json'),
      jqArgs: undefined,
      duckdb: 'json',
      rounds: largeRounds,
    },
    {
      name: '5M NDJSON',
      records: 5_000_000,
      shape: ORDERS,
      path: at('5m.ndjson'),
      jqArgs: undefined,
      duckdb: 'ndjson',
      rounds: largeRounds,
    },
    {
      name: '50k endpoints × 10 records NDJSON',
      records: 500_000,
      shape: ITEMS,
      path: at('50k-endpoints.ndjson'),
      jqArgs: undefined,
      duckdb: 'ndjson',
      rounds,
    },
    { name: '10k-entry HAR', records: 10_000, shape: ORDERS, path: at('10k.har'), jqArgs: undefined, duckdb: undefined, rounds },
  ];
  const inputs = allInputs.filter((input) => only === undefined || only.some((word) => input.name.includes(word)));

  const contentLines: string[] = [];
  for (const input of inputs) {
    const contents = newContents();
    if (input.path.endsWith('.har'))
      await writeLines(
        input.path,
        harEntries(input.records, contents),
        '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[\n',
        ',\n',
        '\n]}}\n',
      );
    else if (input.path.endsWith('.json')) {
      // The 5M document's records are padded so that the file is past V8's string limit (about 512 MiB).
      const records = generateRecords(input.records, input.shape, input.records > 1_000_000 ? 28 : 0, contents);
      // The invalid twin: the same records with the status as text ("200" for 200), two bytes longer each.
      const lines =
        input.invalid === true
          ? (function* () {
              for (const line of records) yield line.replace(/"statusCode":(\d+)/, '"statusCode":"$1"');
            })()
          : records;
      await writeLines(input.path, lines, '{"executions":[\n', ',\n', '\n]}\n');
    } else await writeLines(input.path, generateRecords(input.records, input.shape, 0, contents), '', '\n', '\n');
    const count = (value: number) => value.toLocaleString('en-US');
    contentLines.push(
      `${input.name}: ${count(contents.records)} records, ${count(contents.endpoints.size)} distinct endpoints, ` +
        `${count(contents.pairs.size)} distinct (endpoint, responseTimeMs) pairs`,
    );
  }

  const jq = hasJq();
  const duckdbScript = at('duckdb-summary.mjs');
  await writeFile(duckdbScript, DUCKDB_SCRIPT);
  const duckdb = inputs.some((input) => input.duckdb !== undefined) ? probeDuckDb(duckdbScript) : undefined;
  const rows: string[] = [];
  const agreementLines: string[] = [];
  const duckdbFailures: string[] = [];
  for (const input of inputs) {
    const { size } = await stat(input.path);
    const megabytes = size / 1e6;
    const reportPath = at('summary.json');
    const duckdbOutput = at('duckdb.json');
    await rm(reportPath, { force: true });
    await rm(duckdbOutput, { force: true });
    const env = { PATH: process.env['PATH'] ?? '', QE_ENVIRONMENT: 'bench', QE_INPUT_PATH: input.path, QE_OUTPUT_PATH: reportPath };
    const floorArgs = ['-e', `JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))`, input.path];
    // maximum_object_size is a UINTEGER: the document's size (at least DuckDB's default 16 MiB), at most 2^32 - 1.
    const maximumObjectSize = Math.min(2 ** 32 - 1, Math.max(16 * 1024 * 1024, size + 1024 * 1024));
    const duckdbArgs =
      duckdb !== undefined && 'url' in duckdb && input.duckdb !== undefined
        ? [duckdbScript, duckdb.url, input.path, input.duckdb, String(maximumObjectSize), duckdbOutput]
        : undefined;
    let duckdbFailure: string | undefined;
    const floor: Sample[] = [];
    const run: Sample[] = [];
    const beforeRuns: Sample[] = [];
    const jqRuns: Sample[] = [];
    const duckdbRuns: Sample[] = [];
    for (let round = 0; round < input.rounds; round++) {
      if (!input.path.endsWith('.ndjson')) {
        const sample = timeCommand(process.execPath, floorArgs, env);
        if (sample !== undefined) floor.push(sample);
      }
      let failure = '';
      if (before !== undefined) {
        const beforeSample = timeCommand(process.execPath, [before], env, input.invalid === true ? 65 : 0, (stderr) => (failure = stderr));
        if (beforeSample === undefined) throw new Error(`the build before (${before}) failed over ${input.name}: ${failure}`);
        beforeRuns.push(beforeSample);
      }
      const sample = timeCommand(process.execPath, [runner], env, input.invalid === true ? 65 : 0, (stderr) => (failure = stderr));
      if (sample === undefined) throw new Error(`the run over ${input.name} failed: ${failure}`);
      run.push(sample);
      if (jq && input.jqArgs !== undefined) {
        const jqSample = timeCommand('jq', [...input.jqArgs, input.path], env);
        if (jqSample !== undefined) jqRuns.push(jqSample);
      }
      // A DuckDB that failed once is not run again on this input.
      if (duckdbArgs !== undefined && duckdbFailure === undefined) {
        const duckdbSample = timeCommand(process.execPath, duckdbArgs, env, 0, (stderr) => (duckdbFailure = stderr));
        if (duckdbSample !== undefined) duckdbRuns.push(duckdbSample);
      }
    }
    if (duckdbFailure !== undefined)
      duckdbFailures.push(
        `DuckDB n/a for ${input.name}: ${duckdbFailure.split('\n').find((line) => /Error/.test(line)) ?? duckdbFailure.split('\n')[0] ?? ''}`,
      );
    else if (duckdbRuns.length > 0 && input.invalid !== true)
      agreementLines.push(`${input.name}: ${await agreement(duckdbOutput, reportPath)}`);
    const floorSeconds = median(floor.map((sample) => sample.seconds));
    const runSeconds = median(run.map((sample) => sample.seconds))!;
    const duckdbSeconds = median(duckdbRuns.map((sample) => sample.seconds));
    const perRecordMicroseconds = (runSeconds / input.records) * 1e6;
    const cell = (value: number | undefined, digits: number) => (value === undefined ? 'n/a' : value.toFixed(digits));
    const ratio = (value: number | undefined) => (value === undefined ? 'n/a' : `${(runSeconds / value).toFixed(2)}x`);
    const peak = (samples: readonly Sample[]) => median(samples.map((sample) => sample.peakMegabytes ?? Number.NaN));
    rows.push(
      `| ${input.name} | ${megabytes.toFixed(0)} | ${cell(floorSeconds, 2)} | ${cell(peak(floor), 0)} | ` +
        `${runSeconds.toFixed(2)} | ${cell(peak(run), 0)} | ${perRecordMicroseconds.toFixed(2)} | ` +
        `${ratio(floorSeconds)} | ${cell(median(jqRuns.map((sample) => sample.seconds)), 2)} | ` +
        `${cell(duckdbSeconds, 2)} | ${cell(peak(duckdbRuns), 0)} | ${ratio(duckdbSeconds)} |` +
        (before === undefined ? '' : ` ${beforeCells(beforeRuns, run)} |`),
    );
  }
  const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const duckdbLine =
    duckdb === undefined
      ? []
      : 'url' in duckdb
        ? [
            `DuckDB ${duckdb.version} (@duckdb/node-api ${await nodeApiVersion(duckdb.url)}), in-memory, ` +
              `${duckdb.threads} threads (its default: every core), one query per input, in a node child process.`,
          ]
        : [
            `DuckDB n/a: @duckdb/node-api could not be loaded (${duckdb.failure}). It is a devDependency: ` +
              'run `npm install` (or `npm install --save-dev --save-exact @duckdb/node-api`).',
          ];
  process.stdout.write(
    [
      `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
        `load average ${load(loadAtStart)} at the start and ${load(loadavg())} at the end, ${startedAt.toISOString()}; ` +
        `medians of ${rounds} alternating rounds (${largeRounds} for 5M inputs); ` +
        "floor = read the file + one JSON.parse (n/a: the file is past V8's string limit, or is NDJSON).",
      ...duckdbLine,
      '',
      ...contentLines,
      '',
      ...(before === undefined
        ? []
        : [`before = ${before}, run in the same rounds just before this build (pairs: the median of each round's after / before).`]),
      '| input | MB | floor s | floor peak MB | run s | run peak MB | run µs/record | run / floor | jq s | DuckDB s | DuckDB peak MB | run / DuckDB |' +
        (before === undefined ? '' : ' before s | before peak MB | after / before s (pairs) | after / before peak (pairs) |'),
      '|---|---|---|---|---|---|---|---|---|---|---|---|' + (before === undefined ? '' : '---|---|---|---|'),
      ...rows,
      '',
      ...agreementLines,
      ...duckdbFailures,
      '',
    ].join('\n'),
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}
