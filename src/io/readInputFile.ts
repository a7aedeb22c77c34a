import { InputUnreadableError } from '../errors.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import type { FileSystem } from './fileSystem.js';

/**
 * Reads a file the run was told to read as text; a missing or unreadable
 * file is an InputUnreadableError naming the path and what the file is
 * (`input file` by default; `budgets file`, `baseline report`, ...).
 */
export async function readInputFile(fileSystem: FileSystem, inputPath: string, what?: string): Promise<string> {
  try {
    return await fileSystem.readFile(inputPath);
  } catch (error) {
    throw new InputUnreadableError(inputPath, describeFileSystemFailure(error), { cause: error, ...(what === undefined ? {} : { what }) });
  }
}
