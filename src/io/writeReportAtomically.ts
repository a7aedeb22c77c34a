import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { ReportWriteError } from '../errors.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import type { FileSystem } from './fileSystem.js';

/**
 * Writes the report to a temporary file beside the target and renames it into
 * place, so a reader never sees half a report and a failed write leaves any
 * earlier report untouched. Parent folders are created.
 */
export async function writeReportAtomically(fileSystem: FileSystem, outputPath: string, content: string): Promise<void> {
  const folder = dirname(outputPath);
  // A short name of its own, so a report name near the file-name limit still fits.
  const temporaryPath = join(folder, `.quality-evidence-${randomUUID().slice(0, 8)}.tmp`);
  try {
    await fileSystem.makeDirectory(folder);
    await fileSystem.writeFile(temporaryPath, content);
    await fileSystem.rename(temporaryPath, outputPath);
  } catch (error) {
    await fileSystem.removeFile(temporaryPath).catch(() => undefined);
    throw new ReportWriteError(describeFileSystemFailure(error), { cause: error });
  }
}
