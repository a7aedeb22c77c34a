import { randomUUID } from 'node:crypto';
import { ReportWriteError } from '../errors.js';
import { describeFileSystemFailure } from '../io/describeFileSystemFailure.js';
import type { FileSystem } from '../io/fileSystem.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { isRunningHere, resolvedPathOf, THIS_HOST } from '../io/writeReportAtomically.js';
import { quotePath } from '../renderValue.js';
import { HISTORY_SCHEMA_VERSION, type HistoryRun } from './historyLine.js';

/** What the history file is called in messages, and what its read is named by among the files a run reads. */
export const HISTORY_FILE = 'history file';

/** What a history's header says it is. */
export const HISTORY_KIND = 'quality-evidence history';

/** A line of the history file that was left out, and why. */
export interface SkippedHistoryLine {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** A history file as read: its runs, oldest first, the text of each, and the lines left out. */
export interface History {
  readonly runs: readonly HistoryRun[];
  /** Each run's line as the file holds it, in the order of `runs`: an append writes them back as they were. */
  readonly lines: readonly string[];
  readonly skippedLines: readonly SkippedHistoryLine[];
}

/** The history a run reads when the file is not there yet: the first run makes it. */
const NO_HISTORY: History = { runs: [], lines: [], skippedLines: [] };

/**
 * Reads a history file. A file that is not there is an empty history (the
 * first run writes it). A line that is not a run of this version's history
 * (not JSON, or not of its shape) is left out, with its line number and
 * why: one damaged line never loses the others. A file whose first line
 * states a newer schema version is a ReportFormatError (65): its lines
 * cannot be read, and rewriting it would lose them. A file that cannot be
 * read is an InputUnreadableError (66); one past the limit or not UTF-8 is
 * bad data (65), as every file a run reads.
 */
export async function readHistory(fileSystem: FileSystem, path: string): Promise<History> {
  const text = await historyFileText(fileSystem, path);
  // The lines' schemas load only when there is a history to read (historyParse.ts).
  return text === undefined ? NO_HISTORY : (await import('./historyParse.js')).parseHistory(text, path);
}

/** The lines of the runs a history file holds now, for an append (see {@link historyLinesOf}); none when it is not there. */
export async function readHistoryLines(fileSystem: FileSystem, path: string, known: ReadonlySet<string>): Promise<readonly string[]> {
  const text = await historyFileText(fileSystem, path);
  return text === undefined ? [] : (await import('./historyParse.js')).historyLinesOf(text, path, known);
}

// The file's text, read as strictly as every file a run reads; undefined when nothing is there.
async function historyFileText(fileSystem: FileSystem, path: string): Promise<string | undefined> {
  if (
    (await fileSystem.stat(path).catch(() => undefined)) === undefined &&
    (await fileSystem.lstat(path).catch(() => undefined)) === undefined
  )
    return undefined;
  return readInputFile(fileSystem, path, HISTORY_FILE, REPORT_FILE_LIMIT_BYTES);
}

/** The text of a history file: the header, then one line per run, each ending in a newline. */
export function historyText(runs: readonly HistoryRun[]): string {
  return historyTextOfLines(runs.map((run) => JSON.stringify(run)));
}

/** {@link historyText} of runs already written as lines. */
export function historyTextOfLines(lines: readonly string[]): string {
  const header = JSON.stringify({ schemaVersion: HISTORY_SCHEMA_VERSION, kind: HISTORY_KIND });
  return `${[header, ...lines].join('\n')}\n`;
}

/** How long a run waits for another run's append to end before it gives up: a minute (an append takes milliseconds). */
const LOCK_WAIT_MS = 60_000;

/** A lock of another machine older than this was left by a run that was killed there: it is taken over. */
const STALE_LOCK_MS = 60_000;

/** A takeover guard older than this was left by a run killed while it took a stale lock over. */
const STALE_GUARD_MS = 10_000;

/** How a run waits between tries for the lock; a parameter so that specs can count the tries. */
export type Pause = (ms: number) => Promise<void>;

const realPause: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` (read the history, write it back with one more run) while
 * this process holds the history file's lock: `<history>.lock` beside the
 * real file (however the path is spelled, through links), created
 * exclusively, holding this machine, process and a token of its own. Two
 * runs that append at once take turns, so each one's run is kept and no
 * line is ever written over another.
 *
 * A lock whose process is gone from this machine, or another machine's
 * lock older than a minute, was left by a run that was killed and is taken
 * over: one run at a time, under `<history>.lock.takeover`, and only if the
 * lock is still the one judged stale, so a live lock is never removed. A
 * run removes the lock only while it holds its own token. A lock held
 * longer than a minute by a live run is a ReportWriteError (73).
 */
export async function withHistoryLock<Result>(
  fileSystem: FileSystem,
  path: string,
  work: () => Promise<Result>,
  pause: Pause = realPause,
): Promise<Result> {
  const lockPath = `${await realPathOfFile(fileSystem, path)}.lock`;
  const token = `${THIS_HOST} ${process.pid} ${randomUUID()}\n`;
  let waitedMs = 0;
  for (;;) {
    try {
      await fileSystem.createFile(lockPath, token);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ReportWriteError(`cannot lock the history file (${quotePath(lockPath)}): ${describeFileSystemFailure(error)}`, {
          cause: error,
        });
      }
    }
    await refuseOtherThanLockFile(fileSystem, lockPath);
    const stale = await staleLockOwner(fileSystem, lockPath);
    if (stale !== undefined && (await removeStaleLock(fileSystem, lockPath, stale, token))) continue;
    if (waitedMs >= LOCK_WAIT_MS) {
      throw new ReportWriteError(
        `the history file is locked by another run (${quotePath(lockPath)}) and stayed locked for a minute; if no run is appending, remove the lock`,
      );
    }
    const step = 10 + Math.floor(Math.random() * 40);
    await pause(step);
    waitedMs += step;
  }
  try {
    return await work();
  } finally {
    // Only this run's own lock: never one another run holds.
    const owner = await fileSystem.readFile(lockPath).catch(() => undefined);
    if (owner === token) await fileSystem.removeFile(lockPath).catch(() => undefined);
  }
}

/**
 * A run makes its lock a regular file (see withHistoryLock) and removes it:
 * anything else at the lock's path (a folder, a link, a FIFO) was made by no
 * run, and no wait ends it, so it is a ReportWriteError (73) at once, not a
 * minute later blamed on another run.
 */
async function refuseOtherThanLockFile(fileSystem: FileSystem, lockPath: string): Promise<void> {
  const facts = await fileSystem.lstat(lockPath).catch(() => undefined);
  if (facts === undefined || facts.kind === 'file') return;
  const what = `${articleOf(facts.kind)} ${facts.kind}`;
  throw new ReportWriteError(
    `the history file's lock (${quotePath(lockPath)}) is ${what}, not a lock file, so no run can take it: remove it`,
  );
}

function articleOf(kind: string): string {
  return /^[aeiou]/i.test(kind) ? 'an' : 'a';
}

// The history's real path: the file a link names, or, before the first run, the real folder and the name.
async function realPathOfFile(fileSystem: FileSystem, path: string): Promise<string> {
  try {
    return await fileSystem.realPath(path);
  } catch {
    return resolvedPathOf(fileSystem, path);
  }
}

// The owner a lock names when it is stale (its process gone from this machine; another machine's, older than STALE_LOCK_MS); undefined when it is live or gone.
async function staleLockOwner(fileSystem: FileSystem, lockPath: string): Promise<string | undefined> {
  let owner: string;
  try {
    owner = await fileSystem.readFile(lockPath);
  } catch {
    // Removed in between: try again.
    return undefined;
  }
  const [host, pid] = owner.trim().split(' ');
  // On this machine a process id tells, whatever the lock's age: a live run holding it for long is still appending.
  if (host === THIS_HOST && pid !== undefined && /^\d+$/.test(pid)) return isRunningHere(Number(pid)) ? undefined : owner;
  const facts = await fileSystem.stat(lockPath).catch(() => undefined);
  return facts !== undefined && Date.now() - facts.modifiedMs > STALE_LOCK_MS ? owner : undefined;
}

/**
 * Removes a lock judged stale, if it is still that lock: takeovers take
 * turns under a guard file, so between reading the lock again and removing
 * it no other run can replace it (the stale lock's owner is gone). False
 * when another run is taking over (the caller waits and tries again).
 */
async function removeStaleLock(fileSystem: FileSystem, lockPath: string, staleOwner: string, token: string): Promise<boolean> {
  const guard = `${lockPath}.takeover`;
  try {
    await fileSystem.createFile(guard, token);
  } catch {
    await refuseOtherThanLockFile(fileSystem, guard);
    const facts = await fileSystem.stat(guard).catch(() => undefined);
    if (facts !== undefined && Date.now() - facts.modifiedMs > STALE_GUARD_MS) await fileSystem.removeFile(guard).catch(() => undefined);
    return false;
  }
  try {
    const owner = await fileSystem.readFile(lockPath).catch(() => undefined);
    if (owner === staleOwner) await fileSystem.removeFile(lockPath);
    return true;
  } finally {
    await fileSystem.removeFile(guard).catch(() => undefined);
  }
}
