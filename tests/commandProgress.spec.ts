import { expect, test } from './support/test.js';
import { Readable } from 'node:stream';
import { runCommand } from '../src/cli/runCommand.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// Progress goes to stderr only on a terminal, so CI logs stay clean.

const input = Array.from({ length: 50 }, (_, index) =>
  JSON.stringify({ statusCode: 200, endpoint: `GET /orders/${index}`, responseTimeMs: 5 }),
).join('\n');

async function run(isTTY: boolean): Promise<{ stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const context: CommandContext = {
    args: ['in.ndjson', '-o', 'out/q.json'],
    env: {},
    fileSystem: new MemoryFileSystem({ 'in.ndjson': input }),
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text), isTTY },
    stderr: { write: (text: string) => (stderr += text), isTTY },
    programName: 'quality-evidence',
    progressIntervalMs: 0,
  };
  await runCommand(context);
  return { stdout, stderr };
}

test('on a terminal, stderr shows records and bytes read and the rate, then clears the line', async () => {
  const { stdout, stderr } = await run(true);

  // eslint-disable-next-line no-control-regex -- the line ends with the terminal's erase-to-end-of-line escape
  expect(stderr).toMatch(/^\r\d+ records, \d+\.\d MB read \(\d+\.\d MB\/s\)\u001b\[K/);
  expect(stderr).toContain('\r50 records, 0.0 MB read (');
  expect(stderr.endsWith('\r\u001b[K')).toBe(true);
  // The terminal gets the short summary for people.
  expect(stdout.split('\n').slice(0, 3)).toStrictEqual([
    '\u001b[1mquality-evidence\u001b[0m · local',
    '\u001b[32m✔ no failed calls, no budgets set\u001b[0m',
    '50 calls · 0 server errors · 0 failed · 0 slow (over 750 ms) · 0 with no response',
  ]);
});

test('when stderr is not a terminal, nothing but the result is printed', async () => {
  const { stdout, stderr } = await run(false);
  expect(stderr).toBe('');
  expect(JSON.parse(stdout)).toMatchObject({ executionCount: 50, failedExecutionCount: 0 });
});
