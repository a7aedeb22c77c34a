import { expect, test } from './support/test.js';
import {
  createDeterministicClock,
  pollUntil,
  PollTimeoutError,
  retryBounded,
  summariseChecks,
  type CheckObservation,
  type Clock,
} from '../src/index.js';

// How an API test uses the helpers. The "API" here is a scripted, in-memory
// fake, and the clock is simulated, so the test is offline and instant; a
// real suite passes `systemClock` and calls its real client instead.

class ServiceUnavailable extends Error {
  override readonly name = 'ServiceUnavailable';
}

/** A fictional export service: a job that is pending for two polls, and an upload endpoint that fails once with 503. */
function createFictionalExportService(clock: Clock) {
  const observations: CheckObservation[] = [];
  let statusReads = 0;
  let uploadCalls = 0;
  return {
    observations,
    async readExportStatus(exportId: string): Promise<CheckObservation> {
      await clock.sleep(40); // the simulated response time
      const observation: CheckObservation = {
        endpoint: `GET /exports/${exportId}`,
        state: ++statusReads < 3 ? 'pending' : 'complete',
        responseTimeMs: 40,
      };
      observations.push(observation);
      return observation;
    },
    async uploadReport(exportId: string): Promise<{ readonly reportUrl: string }> {
      await clock.sleep(900);
      const failed = ++uploadCalls === 1;
      observations.push({ endpoint: 'POST /reports', state: failed ? 'failed' : 'complete', responseTimeMs: 900 });
      if (failed) throw new ServiceUnavailable('POST /reports answered 503');
      return { reportUrl: `/reports/${exportId}.json` };
    },
  };
}

test('an export completes, its report upload survives one 503, and the checks are summarised', async () => {
  const clock = createDeterministicClock();
  const service = createFictionalExportService(clock);

  const exportJob = await test.step('poll the export until it is no longer pending', () =>
    pollUntil({
      operationName: 'export-7 status',
      operation: () => service.readExportStatus('export-7'),
      isComplete: (observation) => observation.state !== 'pending',
      describe: (observation) => observation.state,
      timeoutMs: 1000,
      intervalMs: 100,
      clock,
    }));
  expect(exportJob).toEqual({
    attempts: 3,
    elapsedMs: 320,
    value: { endpoint: 'GET /exports/export-7', state: 'complete', responseTimeMs: 40 },
  });

  const upload = await test.step('upload the report, retrying a 503 once', () =>
    retryBounded({
      operationName: 'upload export-7 report',
      operation: () => service.uploadReport('export-7'),
      shouldRetry: (failure) => failure instanceof ServiceUnavailable,
      maxAttempts: 2,
      delayMs: 50,
      clock,
    }));
  expect(upload).toEqual({ attempts: 2, value: { reportUrl: '/reports/export-7.json' } });

  expect(summariseChecks(service.observations, 750)).toEqual({
    executionCount: 5,
    failedExecutionCount: 1,
    slowExecutionCount: 2,
    failureCountByEndpoint: { 'POST /reports': 1 },
    slowEndpoints: ['POST /reports'],
  });
});

test('a job that stays pending fails the test with a message that says what was polled', async () => {
  const clock = createDeterministicClock();
  const polling = pollUntil({
    operationName: 'export-8 status',
    operation: () => Promise.resolve<CheckObservation>({ endpoint: 'GET /exports/export-8', state: 'pending', responseTimeMs: 40 }),
    isComplete: (observation) => observation.state !== 'pending',
    describe: (observation) => `${observation.endpoint} is ${observation.state}`,
    timeoutMs: 300,
    intervalMs: 100,
    clock,
  });
  await expect(polling).rejects.toThrow(PollTimeoutError);
  await expect(polling).rejects.toThrow(
    'pollUntil: "export-8 status" did not complete within 300 ms (4 attempts, 300 ms elapsed); last observation: GET /exports/export-8 is pending',
  );
});
