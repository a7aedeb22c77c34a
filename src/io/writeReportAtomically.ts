import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { ReportWriteError } from '../errors.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import type { FileSystem } from './fileSystem.js';

/** One file of a report: where it goes and its text. */
export interface ReportFile {
  readonly path: string;
  readonly content: string;
}

/**
 * Writes the report to a temporary file beside the target and renames it into
 * place, so a reader never sees half a report and a failed write leaves any
 * earlier report untouched. Parent folders are created.
 */
export async function writeReportAtomically(fileSystem: FileSystem, outputPath: string, content: string): Promise<void> {
  await writeReportFilesAtomically(fileSystem, [{ path: outputPath, content }]);
}

/**
 * Writes several files of one report (the JSON and its renderings) the same
 * way: every file goes to a temporary file of its own first, and only when
 * all of them are written are they renamed into place, in the order given
 * (the JSON report last, so a new JSON report means its renderings are new
 * too). When any write fails, every temporary file is removed and no earlier
 * file is touched.
 */
export async function writeReportFilesAtomically(fileSystem: FileSystem, files: readonly ReportFile[]): Promise<void> {
  const pending: { temporaryPath: string; path: string }[] = [];
  try {
    for (const { path, content } of files) {
      const folder = dirname(path);
      // A short name of its own, so a report name near the file-name limit still fits.
      const temporaryPath = join(folder, `.quality-evidence-${randomUUID().slice(0, 8)}.tmp`);
      await fileSystem.makeDirectory(folder);
      pending.push({ temporaryPath, path });
      await fileSystem.writeFile(temporaryPath, content);
    }
    while (pending.length > 0) {
      const { temporaryPath, path } = pending[0]!;
      await fileSystem.rename(temporaryPath, path);
      pending.shift();
    }
  } catch (error) {
    await Promise.all(pending.map(({ temporaryPath }) => fileSystem.removeFile(temporaryPath).catch(() => undefined)));
    throw new ReportWriteError(describeFileSystemFailure(error), { cause: error });
  }
}
