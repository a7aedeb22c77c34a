import { test, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Runs the compiled program exactly as `npm run start:helpers` does (the
// suite's globalSetup compiles the project to .build first).
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

interface ProgramRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runStartHelpers(args: readonly string[] = []): Promise<ProgramRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['.build/src/runners/startHelpers.js', ...args], { cwd: repositoryRoot }, (error, stdout, stderr) => {
      // On a non-zero exit, execFile's error carries the exit code as `code`.
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ exitCode, stdout, stderr });
    });
  });
}

const expectedDocument = `{
  "polling": {
    "attempts": 2,
    "elapsedMs": 100,
    "value": {
      "endpoint": "GET /exports/export-7",
      "state": "complete",
      "responseTimeMs": 95
    }
  },
  "retry": {
    "attempts": 2,
    "value": {
      "endpoint": "POST /orders",
      "state": "complete",
      "responseTimeMs": 180
    }
  },
  "summary": {
    "executionCount": 5,
    "failedExecutionCount": 1,
    "slowExecutionCount": 1,
    "failureCountByEndpoint": {
      "POST /orders": 1
    },
    "slowEndpoints": [
      "GET /reports/daily"
    ]
  }
}
`;

test('start:helpers prints the polling, retry and summary document and exits 0', async () => {
  expect(await runStartHelpers()).toEqual({ exitCode: 0, stdout: expectedDocument, stderr: '' });
});

test('start:helpers prints identical bytes on every run', async () => {
  const [first, second] = await Promise.all([runStartHelpers(), runStartHelpers()]);
  expect(second.stdout).toBe(first.stdout);
});

test('start:helpers refuses command-line arguments with exit code 64 and prints no document', async () => {
  expect(await runStartHelpers(['--verbose'])).toMatchObject({ exitCode: 64, stdout: '' });
});
