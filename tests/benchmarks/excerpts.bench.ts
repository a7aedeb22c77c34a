import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../support/runProgram.js';

// What failure excerpts cost (npm run bench:excerpts): the command over a HAR
// file of 100 failed calls of one endpoint, each with a large JSON response
// body (about 900 KB: 4,000 objects of 10 keys), excerpts off, on (200
// bytes), and on with 50 redactKeys. Whole processes, alternated round by
// round, medians of 3 rounds. QE_BENCH_COMMAND names another build's
// command (an older commit's, to compare).

const CALLS = 100;
const ROUNDS = 3;
const command = process.env['QE_BENCH_COMMAND'] ?? join(repositoryRoot, '.build/bin/quality-evidence.js');
const folder = mkdtempSync(join(tmpdir(), 'quality-evidence-excerpts-bench-'));

function body(call: number): string {
  const items = Array.from({ length: 4000 }, (_, index) => ({
    id: `${call}-${index}`,
    name: `item ${index}`,
    price: index * 1.5,
    currency: 'EUR',
    owner: { email: `owner${index}@example.com`, accessToken: `tok-${call}-${index}` },
    tags: ['a', 'b', 'c'],
    note: 'out of stock',
    warehouse: 'north',
    updatedAt: '2026-01-01T00:00:00Z',
    active: index % 2 === 0,
  }));
  return JSON.stringify({ error: 'validation failed', items });
}

const entries = Array.from({ length: CALLS }, (_, call) => ({
  time: 100 + call,
  request: { method: 'POST', url: 'https://shop.example/api/orders' },
  response: { status: 500, content: { mimeType: 'application/json', text: body(call) } },
}));
writeFileSync(join(folder, 'calls.har'), JSON.stringify({ log: { entries } }));
const redactKeys = Array.from({ length: 50 }, (_, index) => `customField${index}`).join(',');

const cases: { name: string; args: readonly string[]; env: Readonly<Record<string, string>> }[] = [
  { name: 'excerpts off', args: [], env: {} },
  { name: 'excerpts on (200 bytes)', args: ['--failure-excerpt-bytes', '200'], env: {} },
  { name: 'excerpts on, 50 redactKeys', args: ['--failure-excerpt-bytes', '200'], env: { QE_REDACT_KEYS: redactKeys } },
];

const seconds: number[][] = cases.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach(({ args, env }, index) => {
    const started = performance.now();
    const outcome = spawnSync(
      process.execPath,
      [command, 'calls.har', ...args, '--environment', 'bench', '--output', 'q.json', '--quiet'],
      {
        cwd: folder,
        env: { PATH: process.env['PATH'] ?? '', ...env },
      },
    );
    if (outcome.status !== 0) throw new Error(outcome.stderr.toString());
    seconds[index]!.push((performance.now() - started) / 1000);
  });
}
rmSync(folder, { recursive: true, force: true });

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kilobytes = Math.round(Buffer.byteLength(body(0)) / 1000);
console.log(`${CALLS} failed calls of one endpoint, ${kilobytes} KB JSON body each; median of ${ROUNDS} rounds (${command})`);
cases.forEach(({ name }, index) => {
  console.log(`${name.padEnd(30)} ${median(seconds[index]!).toFixed(2)} s`);
});
