import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { childEnvironment, createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// stdout or stderr may be full (`> /dev/full`) or closed: what cannot be
// printed is lost, but the exit code stays the run's real outcome and no
// stack trace appears (issue 12, defect 8).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });

/** Runs the command with stdout or stderr on /dev/full and the other one captured. */
async function withFull(
  stream: 'stdout' | 'stderr',
  args: readonly string[],
  { env = {}, files = {} }: { env?: Record<string, string>; files?: Record<string, string> } = {},
): Promise<{ exitCode: number | null; captured: string }> {
  const folder = await createTemporaryFolder({ 'in.json': input, ...files }, 'streams');
  const full = await open('/dev/full', 'w');
  try {
    const stdio = stream === 'stdout' ? (['ignore', full.fd, 'pipe'] as const) : (['ignore', 'pipe', full.fd] as const);
    const child = spawn(process.execPath, [join(repositoryRoot, '.build/src/cli/main.js'), ...args], {
      cwd: folder,
      env: childEnvironment(env),
      stdio: [...stdio],
    });
    let captured = '';
    (stream === 'stdout' ? child.stderr : child.stdout)?.on('data', (chunk: Buffer) => (captured += chunk.toString()));
    const exitCode = await new Promise<number | null>((done) => child.on('close', done));
    return { exitCode, captured };
  } finally {
    await full.close();
  }
}

test('a report printed to a full stdout: exit 0, the report written, nothing on stderr', async () => {
  expect(await withFull('stdout', ['in.json', '--json', '--output', 'q.json'])).toEqual({ exitCode: 0, captured: '' });
});

test('a configuration error with stderr full still exits 78', async () => {
  expect(await withFull('stderr', ['in.json'], { env: { QE_SLOW_RESPONSE_THRESHOLD_MS: 'soon' } })).toEqual({ exitCode: 78, captured: '' });
});

test('a missing input with stderr full still exits 66', async () => {
  expect(await withFull('stderr', ['missing.json'])).toEqual({ exitCode: 66, captured: '' });
});

test('a breached budget with stderr full still exits 1, the report on stdout', async () => {
  const { exitCode, captured } = await withFull('stderr', ['in.json', '--json', '--output', 'q.json', '--budgets', 'budgets.json'], {
    files: { 'budgets.json': '{ "responseTimeMs": { "p95": 1 } }' },
  });

  expect(exitCode).toBe(1);
  expect(JSON.parse(captured)).toMatchObject({ budgets: { passed: false } });
});
