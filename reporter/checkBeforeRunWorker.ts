import { workerData, type MessagePort } from 'node:worker_threads';
import type { ReportDestination } from '../src/run/publishReport.js';
import type { JudgementSettings } from '../src/run/judgement.js';

/**
 * The worker that checks, before any test runs, what the reporter would
 * otherwise find only at the end: the budgets file and the baseline (read
 * and checked, as the run's end would) and where the report goes. It runs
 * the same asynchronous code as the run's end; the reporter waits for it
 * (see checkBeforeRun.ts). The modules are loaded inside the try, so that
 * even a failure to load them is an answer, never a worker that stays silent.
 */
export interface CheckBeforeRunData {
  readonly settings: JudgementSettings;
  readonly destination: ReportDestination;
  readonly port: MessagePort;
  /** Set to 1, and notified, once the answer is on the port. */
  readonly signal: Int32Array;
}

const { settings, destination, port, signal } = workerData as CheckBeforeRunData;

void (async () => {
  try {
    const { nodeFileSystem } = await import('../src/io/fileSystem.js');
    const { loadJudgement } = await import('../src/run/judgement.js');
    const { checkReportDestination, destinationJudgedBy } = await import('../src/run/publishReport.js');
    const judgement = await loadJudgement(settings, nodeFileSystem);
    // With the files the contract's $refs bring in, known only once it is loaded.
    await checkReportDestination(nodeFileSystem, destinationJudgedBy(destination, judgement));
    port.postMessage({ judgement });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) } });
  } finally {
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  }
})();
