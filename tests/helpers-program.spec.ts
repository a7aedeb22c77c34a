import { expect, test } from './support/test.js';
import { runProgram } from './support/runProgram.js';

// Runs the compiled program exactly as `npm run start:helpers` does (the
// suite's globalSetup compiles the project to .build first).
function runStartHelpers(args: string[] = []): ReturnType<typeof runProgram> {
  return runProgram('scripts/startHelpers.js', { args });
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
