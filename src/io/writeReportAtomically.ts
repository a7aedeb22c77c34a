import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { InputUnreadableError, ReportWriteError } from '../errors.js';
import { quotePath } from '../renderValue.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import type { FileFacts, FileSystem } from './fileSystem.js';

/** One file of a report: where it goes and its text. */
export interface ReportFile {
  readonly path: string;
  /** The text, or its pieces (see FileSystem.createFileFromPieces), made as the file is written: iterated once. */
  readonly content: string | Iterable<string>;
  /** What the file is, for messages, which never show the path (it may come from a variable): default `output path`. */
  readonly role?: string | undefined;
}

/** A file the run reads (or its standard output writes to), which no report file may replace: an input, the budgets file, the baseline report. */
export interface ReadFile {
  readonly path: string;
  /** What it is, for the message: `input file`, `baseline report`. */
  readonly what: string;
  /** What the run does with it, for the message; default `reads`. */
  readonly use?: string;
  /** Whether the message names its path; default true (a standard stream's `/dev/stdout` would say nothing). */
  readonly named?: boolean;
  /**
   * Whether the path is kept from the report even where nothing is there yet:
   * the default settings file, which a report written there would turn
   * into settings for the next run. Default false (a missing input fails the run anyway).
   */
  readonly evenIfMissing?: boolean;
}

/**
 * The files behind this process's standard streams, where they are regular
 * files (`< in.ndjson`, `> log.txt`): a report written over one would destroy
 * the input or the log the shell redirected to. Linux names them /dev/stdin,
 * /dev/stdout and /dev/stderr; elsewhere nothing is there, and nothing is checked.
 * Standard input counts only for a run that reads it (`-`): in a run that does
 * not, it is no input of the run, and it is often /dev/null, which the job
 * summary may then be too.
 */
export function standardStreamFiles({ readsStandardInput }: { readonly readsStandardInput: boolean }): readonly ReadFile[] {
  return [...(readsStandardInput ? [STANDARD_INPUT_FILE] : []), ...STANDARD_OUTPUT_FILES];
}

const STANDARD_INPUT_FILE: ReadFile = { path: '/dev/stdin', what: 'standard input', use: 'reads', named: false };
const STANDARD_OUTPUT_FILES: readonly ReadFile[] = [
  { path: '/dev/stdout', what: 'standard output', use: 'writes to', named: false },
  { path: '/dev/stderr', what: 'standard error', use: 'writes to', named: false },
];

/**
 * The temporary files of this tool: `.quality-evidence-`, the writing
 * machine (6 hexadecimal digits of its host name's hash) and process id,
 * 8 random hexadecimal digits, `.tmp`.
 */
const TEMPORARY_FILE = /^\.quality-evidence-(?:([0-9a-f]{6})-(\d{1,10})-)?[0-9a-f]{8}\.tmp$/;

/** This machine, as temporary names carry it: a process id says something only on the machine (or container) it was given on. */
export const THIS_HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);

/**
 * A temporary file of this tool whose process is gone from this machine, or
 * that is older than this (a process on another machine sharing the folder),
 * was left by a run that was killed: the next successful run removes it.
 */
const STALE_TEMPORARY_FILE_MS = 5 * 60 * 1000;

/**
 * Writes the report to a temporary file beside the target and renames it into
 * place, so a reader never sees half a report and a failed write leaves any
 * earlier report untouched. Parent folders are created.
 */
export async function writeReportAtomically(fileSystem: FileSystem, outputPath: string, content: string): Promise<void> {
  await writeReportFilesAtomically(fileSystem, [{ path: outputPath, content }]);
}

/**
 * Where each report file will really be written, checked before anything is
 * read or written, so that a run that could only destroy something stops
 * first (ReportWriteError, exit 73):
 * - a path that exists must be a regular file: a device (`/dev/null`), a
 *   FIFO, a socket or a folder is refused, never replaced;
 * - a symbolic link is followed: the report replaces the file it points to,
 *   and the link stays; a link that points nowhere is refused;
 * - no report file may be a file the run reads (the same device and inode,
 *   however the path is spelled, through links or hard links).
 * Returns the real path of each existing file, and each new one as given.
 */
export async function resolveReportTargets(
  fileSystem: FileSystem,
  files: readonly Omit<ReportFile, 'content'>[],
  reads: readonly ReadFile[] = [],
): Promise<string[]> {
  const readFacts: { facts: FileFacts; read: ReadFile }[] = [];
  const missingReads: { resolved: string; read: ReadFile }[] = [];
  for (const read of reads) {
    const facts = await inspectRead(fileSystem, read);
    if (facts !== undefined) readFacts.push({ facts, read });
    else if (read.evenIfMissing === true) missingReads.push({ resolved: await resolvedPathOf(fileSystem, read.path), read });
  }
  const targets: string[] = [];
  for (const { path, role = 'output path' } of files) {
    if (isSystemPath(await realFolderOf(fileSystem, path))) {
      throw refusal(
        role,
        'is in /dev or /proc, among devices and the streams of processes, where a report is never written; to print the report, use --json',
      );
    }
    const facts = await inspect(fileSystem, path, 'stat');
    if (facts === undefined) {
      const link = await inspect(fileSystem, path, 'lstat');
      if (link?.kind === 'symbolic link')
        throw refusal(role, 'is a symbolic link to a file that does not exist (or a loop of links); name the file itself');
      // `new/../in.json` names nothing now, and the input once the write has made `new`: what it names cannot be checked before.
      if ((await partToCreate(fileSystem, path)).names.includes('..')) {
        throw refusal(
          role,
          'goes up (..) out of a folder that is not there yet, so what it names is known only once the folder is made; name the file without it',
        );
      }
      const resolved = missingReads.length === 0 ? undefined : await resolvedPathOf(fileSystem, path);
      const missing = missingReads.find((read) => read.resolved === resolved);
      if (missing !== undefined)
        throw refusal(role, destroys(missing.read, `the next run would read the report as its ${missing.read.what}`));
      targets.push(path);
      continue;
    }
    if (facts.kind !== 'file')
      throw refusal(role, `is a ${facts.kind}, not a regular file; the report is only ever written to a regular file`);
    const same = readFacts.find(({ facts: read }) => read.device === facts.device && read.inode === facts.inode);
    if (same !== undefined) throw refusal(role, destroys(same.read, 'writing the report there would destroy it'));
    targets.push(await fileSystem.realPath(path).catch((error: unknown) => Promise.reject(failure(error))));
  }
  return targets;
}

// `is the settings file "x.json", which this run reads: <consequence>`.
function destroys(read: ReadFile, consequence: string): string {
  const named = read.named === false ? '' : ` ${quotePath(read.path)}`;
  return `is the ${read.what}${named}, which this run ${read.use ?? 'reads'}: ${consequence}`;
}

/**
 * What a path names, as a key two spellings of one file share: the device
 * and inode of what is there (links followed), or, where nothing is yet, the
 * real path of its folder joined to its name. Undefined when the path cannot
 * be looked at (the write or the append says why).
 */
export async function fileIdentity(fileSystem: FileSystem, path: string): Promise<string | undefined> {
  try {
    const facts = await fileSystem.stat(path);
    return facts === undefined ? `path ${await resolvedPathOf(fileSystem, path)}` : `inode ${facts.device}:${facts.inode}`;
  } catch {
    return undefined;
  }
}

/** The path with the real path of its nearest existing folder in front: a file that does not exist yet, as it will be named. */
export async function resolvedPathOf(fileSystem: FileSystem, path: string): Promise<string> {
  const part = await partToCreate(fileSystem, path);
  return part.folder === undefined ? resolve(path) : join(part.folder, ...part.names);
}

// The real path of the nearest folder of a path that is there (undefined when none is), and the names below it.
async function partToCreate(
  fileSystem: FileSystem,
  path: string,
): Promise<{ readonly folder: string | undefined; readonly names: readonly string[] }> {
  const names: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    names.unshift(basename(at));
    const folder = dirname(at);
    try {
      return { folder: await fileSystem.realPath(folder), names };
    } catch {
      if (dirname(folder) === folder) return { folder: undefined, names };
    }
  }
}

// /dev/stdout is a link to /proc/self/fd/1, which is a link to whatever stdout is: a rename there would replace the file a shell redirected to.
function isSystemPath(realFolder: string): boolean {
  return /^\/(?:proc|dev)(?:\/|$)/.test(realFolder) && !/^\/dev\/shm(?:\/|$)/.test(realFolder);
}

// The real path of the nearest folder above `path` that exists.
async function realFolderOf(fileSystem: FileSystem, path: string): Promise<string> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    try {
      return await fileSystem.realPath(folder);
    } catch {
      if (dirname(folder) === folder) return folder;
    }
  }
}

/**
 * Writes several files of one report (the JSON and its renderings) the same
 * way: every file goes to a temporary file of its own first, created
 * exclusively (an existing file or a planted link is never followed) and
 * flushed to the disk, and only when all of them are written are they renamed
 * into place, in the order given (the JSON report last, so a new JSON report
 * means its renderings are new too), and the folders flushed. When any write
 * fails, every temporary file is removed and no earlier file is touched.
 * After a successful write, temporary files of this tool that a killed run
 * left in those folders are removed: those of a process that no longer runs
 * on this machine, and any older than {@link STALE_TEMPORARY_FILE_MS}.
 */
export async function writeReportFilesAtomically(
  fileSystem: FileSystem,
  files: readonly ReportFile[],
  reads: readonly ReadFile[] = [],
): Promise<void> {
  const targets = await resolveReportTargets(fileSystem, files, reads);
  const pending: { temporaryPath: string; path: string }[] = [];
  const folders = new Set<string>();
  try {
    for (const [index, { content }] of files.entries()) {
      const path = targets[index]!;
      const folder = dirname(path);
      // A short name of its own, so a report name near the file-name limit still fits.
      const temporaryPath = join(folder, `.quality-evidence-${THIS_HOST}-${process.pid}-${randomUUID().slice(0, 8)}.tmp`);
      // The renderings sit beside the JSON report: their folder is made once.
      if (!folders.has(folder)) {
        await makeFolders(fileSystem, folder).catch((error: unknown) =>
          Promise.reject(new ReportWriteError(`cannot create a folder on the path: ${describeFileSystemFailure(error)}`, { cause: error })),
        );
        folders.add(folder);
      }
      pending.push({ temporaryPath, path });
      await createFile(fileSystem, temporaryPath, content);
    }
    while (pending.length > 0) {
      const { temporaryPath, path } = pending[0]!;
      await fileSystem.rename(temporaryPath, path);
      pending.shift();
    }
  } catch (error) {
    await Promise.all(pending.map(({ temporaryPath }) => fileSystem.removeFile(temporaryPath).catch(() => undefined)));
    throw error instanceof ReportWriteError ? error : failure(error);
  }
  for (const folder of folders) {
    await fileSystem.syncFolder(folder);
    await removeStaleTemporaryFiles(fileSystem, folder);
  }
}

// A text given in pieces goes to the file system's createFileFromPieces, or joined to its createFile when it has none.
async function createFile(fileSystem: FileSystem, path: string, content: string | Iterable<string>): Promise<void> {
  if (typeof content === 'string') await fileSystem.createFile(path, content);
  else if (fileSystem.createFileFromPieces !== undefined) await fileSystem.createFileFromPieces(path, content);
  else await fileSystem.createFile(path, [...content].join(''));
}

/** Creates the folder a file goes in, and its missing parents, as a report's write does: a ReportWriteError (73) when it cannot. */
export async function makeFolderOf(fileSystem: FileSystem, path: string): Promise<void> {
  await makeFolders(fileSystem, dirname(path)).catch((error: unknown) =>
    Promise.reject(new ReportWriteError(`cannot create a folder on the path: ${describeFileSystemFailure(error)}`, { cause: error })),
  );
}

/**
 * Creates a folder and its missing parents, one level at a time: finds the
 * nearest ancestor that exists, then creates each level below it once. The
 * loop is bounded by the path's depth, so a file system that claims a folder
 * is missing after creating it (procfs) ends in an error, never a hang; and
 * each failure is the one the system gave for that level (EROFS on a
 * read-only mount, not ENOENT). Fails with the file system's error
 * (ENOTDIR when a parent is not a folder).
 */
async function makeFolders(fileSystem: FileSystem, folder: string): Promise<void> {
  const missing: string[] = [];
  let at = folder;
  for (;;) {
    const facts = await fileSystem.stat(at);
    if (facts !== undefined) {
      if (facts.kind !== 'folder') throw Object.assign(new Error('a parent of the path is not a folder'), { code: 'ENOTDIR' });
      break;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      await fileSystem.makeDirectory(level);
    } catch (error) {
      // A concurrent run may have created it in between.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await fileSystem.stat(level))?.kind === 'folder') continue;
      throw error;
    }
  }
}

async function removeStaleTemporaryFiles(fileSystem: FileSystem, folder: string): Promise<void> {
  try {
    const now = Date.now();
    for (const name of await fileSystem.listFolder(folder)) {
      const match = TEMPORARY_FILE.exec(name);
      if (match === null) continue;
      const path = join(folder, name);
      const facts = await fileSystem.lstat(path);
      if (facts?.kind !== 'file') continue;
      // A process id is trusted only on the machine that wrote it: one here that runs keeps its file
      // however old; one here that is gone leaves a stale file; another machine's file goes by age.
      const here = match[1] === THIS_HOST;
      const writer = match[2] === undefined ? undefined : Number(match[2]);
      const alive = here && writer !== undefined && (writer === process.pid || isRunningHere(writer));
      const gone = here && writer !== undefined && !alive;
      if (!alive && (gone || now - facts.modifiedMs > STALE_TEMPORARY_FILE_MS)) await fileSystem.removeFile(path);
    }
  } catch {
    // Tidying up is a courtesy: the report is written.
  }
}

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
export function isRunningHere(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function inspect(fileSystem: FileSystem, path: string, how: 'stat' | 'lstat'): Promise<FileFacts | undefined> {
  try {
    return await fileSystem[how](path);
  } catch (error) {
    // ELOOP: a loop of links; EACCES: a parent that cannot be searched.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    throw failure(error);
  }
}

// A file the run reads that cannot even be looked at (a folder on its path that cannot be searched, a NUL byte in
// its path) cannot be read either: that is the read's failure, naming the file (66), not the report's.
async function inspectRead(fileSystem: FileSystem, read: ReadFile): Promise<FileFacts | undefined> {
  try {
    return await fileSystem.stat(read.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' || read.named === false) return undefined;
    throw new InputUnreadableError(read.path, describeFileSystemFailure(error), { cause: error, what: read.what });
  }
}

function refusal(role: string, reason: string): ReportWriteError {
  return new ReportWriteError(`the ${role} ${reason}`);
}

function failure(error: unknown): ReportWriteError {
  return new ReportWriteError(describeFileSystemFailure(error), { cause: error });
}
