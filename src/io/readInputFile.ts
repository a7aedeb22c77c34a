import { InputUnreadableError } from '../errors.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import type { FileSystem } from './fileSystem.js';

/** Reads the input file as text; a missing or unreadable file is an InputUnreadableError naming the path. */
export async function readInputFile(fileSystem: FileSystem, inputPath: string): Promise<string> {
  try {
    return await fileSystem.readFile(inputPath);
  } catch (error) {
    throw new InputUnreadableError(inputPath, describeFileSystemFailure(error), { cause: error });
  }
}
