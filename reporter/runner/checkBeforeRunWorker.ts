import { workerData, type MessagePort } from 'node:worker_threads';
import type { EnvironmentRecord } from '../../src/config/settingsSources.js';
import type { ReadFile } from '../../src/io/writeReportAtomically.js';
import type { RunSettings } from '../../src/workflow/openRun.js';

/**
 * The worker that checks, before any test runs, what the reporter would
 * otherwise find only at the end: the budgets file and the baseline (read
 * and checked, as the run's end would) and where the report goes. It runs
 * the same asynchronous code as the run's end; the reporter waits for it
 * (see checkBeforeRun.ts). The modules are loaded inside the try, so that
 * even a failure to load them is an answer, never a worker that stays silent.
 */
export interface CheckBeforeRunData {
  readonly settings: RunSettings;
  /** The files the run reads besides those its settings name (the settings file). */
  readonly reads: readonly ReadFile[];
  /** The reporter's environment, as its host read it. */
  readonly env: EnvironmentRecord;
  /** The reporter's working folder: the report names the contract's documents relative to it. */
  readonly cwd: string;
  readonly port: MessagePort;
  /** Set to 1, and notified, once the answer is on the port. */
  readonly signal: Int32Array;
}

const { settings, reads, env, cwd, port, signal } = workerData as CheckBeforeRunData;

void (async () => {
  try {
    const { nodeFileSystem } = await import('../../src/io/fileSystem.js');
    const { systemClock } = await import('../../src/helpers/clock.js');
    const { prepareRun } = await import('../../src/workflow/openRun.js');
    // The same checks as the run's opening at its end (see openRun).
    const judgement = await prepareRun(settings, { fileSystem: nodeFileSystem, env, clock: systemClock, cwd }, { reads });
    port.postMessage({ judgement });
  } catch (error) {
    port.postMessage({
      error: error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) },
    });
  } finally {
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  }
})();
