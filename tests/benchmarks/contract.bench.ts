// Benchmark (npm run bench:contract): loading a large real OpenAPI document
// (GitHub Enterprise Cloud's REST API, 1,471 operations, 14 MB) and matching
// calls to its operations through the segment index, against a plain scan of
// every operation, on 1M call paths drawn from the document's own paths.
// Timings are reported (medians of rounds), never asserted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadContract } from '../../src/contract/loadContract.js';
import { nodeFileSystem } from '../../src/io/fileSystem.js';
import { createOperationMatcher, type OperationTemplate } from '../../src/labels/operationIndex.js';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const calls = Number(process.env['BENCH_CALLS'] ?? 1_000_000);
// Decompressed into a real file, read as a run reads it.
const folder = mkdtempSync(join(tmpdir(), 'quality-evidence-contract-bench-'));
const document = join(folder, 'ghec.json');
writeFileSync(document, gunzipSync(readFileSync('fixtures/openapi/github-ghec.json.gz')));

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const loads: number[] = [];
let operations: readonly OperationTemplate[] = [];
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  const contract = await loadContract([document], nodeFileSystem);
  loads.push(performance.now() - started);
  operations = contract.operations;
}

// Call paths: each operation's path with its parameters filled (digits for integers, a word otherwise), in a fixed pseudo-random order.
let seed = 24301;
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
const paths = Array.from({ length: calls }, () => {
  const operation = operations[next() % operations.length]!;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    operation.integerParameters.includes(name) ? String(next() % 100_000) : `v${next() % 1000}`,
  );
  return [operation.method, path] as const;
});

const timeMatching = (
  match: (method: string, path: string) => number | undefined,
  count = paths.length,
): { ms: number; matched: number } => {
  const started = performance.now();
  let matched = 0;
  for (let index = 0; index < count; index++) {
    const [method, path] = paths[index]!;
    if (match(method, path) !== undefined) matched++;
  }
  return { ms: performance.now() - started, matched };
};

const indexed: number[] = [];
let matchedCount = 0;
for (let round = 0; round < rounds; round++) {
  const match = createOperationMatcher(operations);
  const { ms, matched } = timeMatching(match);
  indexed.push(ms);
  matchedCount = matched;
}

// The scan: every operation's template as a regular expression, tried in order (what an index avoids).
const scanned = operations.map((operation) => ({
  method: operation.method,
  pattern: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
// On the first 20,000 calls only: a scan of every operation per call takes minutes over a million.
const scanCalls = Math.min(calls, 20_000);
const scanMs = timeMatching((method, path) => {
  const found = scanned.findIndex((entry) => entry.method === method && entry.pattern.test(path));
  return found === -1 ? undefined : found;
}, scanCalls).ms;

rmSync(folder, { recursive: true });

console.log(`contract benchmark: ${operations.length} operations, ${calls.toLocaleString('en-US')} calls, ${rounds} rounds (medians)`);
console.log(`  load the 14 MB document:        ${median(loads).toFixed(0)} ms`);
console.log(
  `  match through the index:        ${median(indexed).toFixed(0)} ms (${((median(indexed) * 1e6) / calls).toFixed(0)} ` +
    `ns a call), ${matchedCount.toLocaleString('en-US')} matched`,
);
console.log(
  `  match by a scan of every path:  ${((scanMs * 1e6) / scanCalls).toFixed(0)} ns a call (one round of ${scanCalls.toLocaleString('en-US')} calls)`,
);
