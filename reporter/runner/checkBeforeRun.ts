import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Judgement } from '../../src/evaluation/judgeReport.js';
import type { EnvironmentRecord } from '../../src/config/settingsSources.js';
import type { ReadFile } from '../../src/io/writeReportAtomically.js';
import type { RunSettings } from '../../src/workflow/openRun.js';
import type { CheckBeforeRunData } from './checkBeforeRunWorker.js';

/**
 * How long the reporter waits for the check before the run; past it, the
 * checks are left to the run's end, as if they could not be made early.
 */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Loads the judgement (budgets, baseline) and checks the report's
 * destination before any test runs, throwing what the run's end would throw
 * (a ConfigurationError, an InputUnreadableError, a ReportWriteError, ...,
 * rebuilt with its name and message). Playwright offers a reporter no way to
 * stop a run once it has begun (an error thrown in onBegin is reported, and
 * the tests run all the same), and no asynchronous hook before it: so the
 * reporter's constructor calls this, and it waits for a worker thread that
 * runs the same asynchronous code as the run's end. Returns undefined when
 * the worker cannot be found or does not answer: the run's end checks then.
 *
 * `configDir` is where Playwright resolved the reporter from: the package's
 * compiled worker is found from there (or from `cwd`).
 */
export function checkBeforeRun(
  settings: RunSettings,
  reads: readonly ReadFile[],
  env: EnvironmentRecord,
  configDir: string,
  cwd: string,
): Judgement | undefined {
  const workerFile = findWorkerFile([configDir, cwd]);
  if (workerFile === undefined) return undefined;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const workerData: CheckBeforeRunData = { settings, reads, env, cwd, port: port2, signal };
  const worker = new Worker(workerFile, { workerData, transferList: [port2] });
  try {
    Atomics.wait(signal, 0, 0, CHECK_TIMEOUT_MS);
    const answer = receiveMessageOnPort(port1)?.message as
      { judgement: Judgement } | { error: { name: string; message: string } } | undefined;
    if (answer === undefined) return undefined;
    if ('error' in answer) throw rebuiltError(answer.error);
    return answer.judgement;
  } finally {
    port1.close();
    void worker.terminate();
  }
}

// The worker's error as the run's end would throw it: its name and message, with the stack of this thread (the worker's would say nothing to a user).
function rebuiltError({ name, message }: { name: string; message: string }): Error {
  // A class of the error's own name, so that Playwright prints `ConfigurationError: …` as for an error thrown here.
  const Named = { [name]: class extends Error {} }[name] ?? Error;
  const error = new Named(message);
  error.name = name;
  Error.captureStackTrace(error, checkBeforeRun);
  return error;
}

// The CommonJS build of the worker, which loads in any project: found through the package's own name, as Playwright found the reporter.
function findWorkerFile(folders: readonly string[]): string | undefined {
  for (const folder of folders) {
    try {
      const manifest = createRequire(join(folder, 'playwright.config.js')).resolve('quality-evidence/package.json');
      const file = join(dirname(manifest), '.build', 'cjs', 'reporter', 'runner', 'checkBeforeRunWorker.js');
      if (existsSync(file)) return file;
    } catch {
      // Not installed where this folder can see it: the next folder, or the run's end.
    }
  }
  return undefined;
}
