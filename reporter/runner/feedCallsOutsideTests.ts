import { fileURLToPath } from 'node:url';
import { isAbsolute, sep } from 'node:path';
import type { EvidenceRun } from '../../src/run/evidenceRun.js';
import type { TestIdentity } from '../../src/summary/endpointEvidence.js';
import { RECORDED_CALL_FILE, type CallOutsideTests } from '../shared/callsOutsideTests.js';
import type { StepLocation } from '../shared/apiCalls.js';
import { sourceLocationOf } from './feedAttempts.js';

/** When a call outside the tests was made, as the reporter saw it: before the run's tests began (global setup), or after. */
export type RunPhase = 'setup' | 'teardown';

/** A call made outside any test, as the reporter took it: with the phase of the run it came in. */
export interface CallOutsideTestsTaken extends CallOutsideTests {
  readonly phase: RunPhase;
}

/** The config's global setup and teardown files, absolute, as Playwright runs them. */
export interface GlobalHookFiles {
  readonly setups: readonly string[];
  readonly teardowns: readonly string[];
}

/**
 * Feeds the calls made outside any test (global setup and teardown, in the
 * runner's process) into the run, each as the call of a test named for where
 * it came from: `global teardown` when it was made after the tests began or
 * its stack holds a global teardown file (a run whose setup failed begins
 * its tests, for its reporters, only as it ends), else `global setup`. The
 * test is declared in the setup (or teardown) file whose function made the
 * call (found in its stack; else the phase's first file, else any), at its
 * line 1, and passed, in one attempt. The call's own line is the first frame
 * of its stack outside `node_modules`, as Playwright's steps give a test's.
 * A call whose file cannot be told (no such file in the config, no frame the
 * user's) is still counted, named by its location only.
 */
export function feedCallsOutsideTests(
  run: EvidenceRun,
  calls: readonly CallOutsideTestsTaken[],
  { hooks, rootDir }: { readonly hooks: GlobalHookFiles; readonly rootDir: string },
): void {
  const hookFiles = [...hooks.setups, ...hooks.teardowns];
  for (const { record, stack, phase: seen } of calls) {
    const frames = framesOf(stack);
    const phase = seen === 'teardown' || frames.some((frame) => hooks.teardowns.includes(frame.file)) ? 'teardown' : 'setup';
    const title = `global ${phase}`;
    const location = { kind: 'test', title, attempt: 1 } as const;
    const callFrame = frames.find((frame) => !frame.file.split(sep).includes('node_modules'));
    const file =
      frames.find((frame) => hookFiles.includes(frame.file))?.file ??
      (phase === 'setup' ? hooks.setups : hooks.teardowns)[0] ??
      hookFiles[0] ??
      callFrame?.file;
    const test: TestIdentity | undefined =
      file === undefined ? undefined : { title, ...sourceLocationOf({ file, line: 1, column: 1 }, rootDir) };
    run.take(record, () => location, {
      ...(test === undefined ? {} : { test }),
      attempt: 1,
      testPassed: true,
      retriedAway: false,
      derivedFromUrl: true,
      ...(callFrame === undefined ? {} : { callLocation: sourceLocationOf(callFrame, rootDir) }),
    });
  }
}

// `    at globalSetup (/p/global-setup.ts:4:13)`, `    at async file:///p/setup.mjs:4:13`, `    at /p/a.ts:4:13`.
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/** The frames of a call's stack below the recording's own, each an absolute file with its line and column; none for no stack. */
export function framesOf(stack: string | undefined): StepLocation[] {
  const lines = (stack ?? '').split('\n');
  const recording = lines.findIndex((line) => line.includes(`(${RECORDED_CALL_FILE}:`) || line.includes(` ${RECORDED_CALL_FILE}:`));
  const frames: StepLocation[] = [];
  for (const line of lines.slice(recording + 1)) {
    const match = FRAME.exec(line);
    if (match === null) continue;
    const written = match[1]!;
    let file: string;
    try {
      file = written.startsWith('file://') ? fileURLToPath(written) : written;
    } catch {
      continue;
    }
    if (isAbsolute(file)) frames.push({ file, line: Number(match[2]), column: Number(match[3]) });
  }
  return frames;
}
