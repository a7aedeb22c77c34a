import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPlaywrightProject } from './support/playwrightProject.js';

// A consumer outside this repository that installs the packed package and
// imports it by name, as a user would.
const consumerScript = `import {
  PollTimeoutError,
  RetryExhaustedError,
  createDeterministicClock,
  loadQualityToolConfig,
  pollUntil,
  retryBounded,
  summariseChecks,
} from 'quality-evidence';

const clock = createDeterministicClock();
const timeout = await pollUntil({
  operationName: 'job', operation: async () => 'pending', isComplete: (state) => state === 'complete',
  describe: (state) => 'state ' + state, timeoutMs: 3_600_000, intervalMs: 1000, clock,
}).catch((error) => error);
const flaky = new Error('503');
const exhausted = await retryBounded({
  operationName: 'create order', operation: async () => { throw flaky; }, shouldRetry: () => true, maxAttempts: 3, delayMs: 50, clock,
}).catch((error) => error);
console.log(JSON.stringify({
  pollTimeout: { isPollTimeoutError: timeout instanceof PollTimeoutError, isError: timeout instanceof Error, attempts: timeout.attempts, elapsedMs: timeout.elapsedMs },
  retry: { isRetryExhaustedError: exhausted instanceof RetryExhaustedError, attempts: exhausted.attempts, causeKept: exhausted.cause === flaky },
  clockNow: clock.now(),
  summary: summariseChecks([{ endpoint: 'get /a', state: 'failed', responseTimeMs: 751 }], 750),
  config: loadQualityToolConfig({ QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' }),
}));
`;

test('a consumer imports the helpers, their error types and the loader by the package name, with no real waiting', async () => {
  const project = await createPlaywrightProject({ 'consumer.mjs': consumerScript });

  const { stdout } = await promisify(execFile)(process.execPath, [join(project, 'consumer.mjs')], { cwd: project, timeout: 30_000 });

  expect(JSON.parse(stdout)).toEqual({
    pollTimeout: { isPollTimeoutError: true, isError: true, attempts: 3601, elapsedMs: 3_600_000 },
    retry: { isRetryExhaustedError: true, attempts: 3, causeKept: true },
    clockNow: 3_600_100,
    summary: { executionCount: 1, failedExecutionCount: 1, slowExecutionCount: 1, failureCountByEndpoint: { 'GET /a': 1 }, slowEndpoints: ['GET /a'] },
    config: { environment: 'ci', slowResponseThresholdMs: 750, inputPath: 'in.json', outputPath: '.build/quality-summary.json' },
  });
});
