import { expect, test } from './support/test.js';
import { Readable } from 'node:stream';
import { runCommand } from '../src/cli/runCommand.js';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// Records whose values no real call has are refused where they are, before they can bend a statistic.

async function command(
  args: readonly string[],
  files: Readonly<Record<string, string>>,
): Promise<{ exitCode: number; message: string; fileSystem: MemoryFileSystem }> {
  const fileSystem = new MemoryFileSystem(files);
  const context: CommandContext = {
    args,
    env: {},
    fileSystem,
    stdin: Readable.from([]),
    stdout: { write: () => true, isTTY: false },
    stderr: { write: () => true, isTTY: false },
    programName: 'quality-evidence',
  };
  try {
    return { exitCode: await runCommand(context), message: '', fileSystem };
  } catch (error) {
    return { exitCode: exitCodeFor(error), message: (error as Error).message, fileSystem };
  }
}

test('a response time of 1e306 ms (whose sum would overflow, leaving the mean null beside a p50) is an invalid record at its line, exit 65', async () => {
  const line = (responseTimeMs: number) => JSON.stringify({ statusCode: 200, endpoint: 'GET /a', responseTimeMs });
  const outcome = await command(['in.ndjson', '-o', 'out/q.json'], { 'in.ndjson': [line(1e306), line(1e306), line(5)].join('\n') });
  expect([outcome.exitCode, outcome.message]).toStrictEqual([
    65,
    '2 of 3 records are invalid:\n' +
      '  - line 1 of in.ndjson, responseTimeMs: must be at most 86,400,000 (a day): a longer time is in another unit; found 1e+306 (a number)\n' +
      '  - line 2 of in.ndjson, responseTimeMs: must be at most 86,400,000 (a day): a longer time is in another unit; found 1e+306 (a number)',
  ]);
  expect(outcome.fileSystem.writes).toStrictEqual([]);
});
