import { basename } from 'node:path';
import type { FileSystem } from '../io/fileSystem.js';

/**
 * The variable of a test-only hook, for the crash-safety spec
 * (tests/crashSafety.spec.ts), and of no use to anyone else: set to a whole
 * number n, the command stops before the n-th step of its run that changes
 * the file system (creating, renaming or removing a file, making a folder,
 * appending, flushing a folder), says so on stderr and waits there for up to
 * {@link HOLD_MS} before going on, so that a kill lands between two chosen
 * steps however busy the machine is. Unset, or anything but a whole number
 * from 1, it does nothing: the file system is the one given.
 */
export const HOLD_WRITE_VARIABLE = 'QE_TEST_HOLD_BEFORE_WRITE_STEP';

/** How long a held step waits before it goes on, for a spec that never kills it: a minute. */
const HOLD_MS = 60_000;

/**
 * `fileSystem`, or, when `step` is a whole number n from 1, the same file
 * system that holds before its n-th changing step (see {@link HOLD_WRITE_VARIABLE}),
 * writing `held before write step n: <operation> <file name>` to `stderr`.
 * Read by the command's entry alone; the core never sees it.
 */
export function holdWritesForTests(fileSystem: FileSystem, step: string | undefined, stderr: NodeJS.WritableStream): FileSystem {
  if (step === undefined || !/^[1-9]\d{0,5}$/.test(step)) return fileSystem;
  const holdAt = Number(step);
  let taken = 0;
  const before = async (operation: string, path: string): Promise<void> => {
    taken++;
    if (taken !== holdAt) return;
    stderr.write(`held before write step ${taken}: ${operation} ${basename(path)}\n`);
    await new Promise((resume) => setTimeout(resume, HOLD_MS));
  };
  return {
    ...fileSystem,
    createFile: async (path, content) => {
      await before('create', path);
      await fileSystem.createFile(path, content);
    },
    // Not carried by the spread above (see FileSystem.createFileFromPieces): the report's JSON is written this way, held the same.
    ...(fileSystem.createFileFromPieces === undefined
      ? {}
      : {
          createFileFromPieces: async (path: string, pieces: Iterable<string>) => {
            await before('create', path);
            await fileSystem.createFileFromPieces!(path, pieces);
          },
        }),
    appendFile: async (path, content) => {
      await before('append to', path);
      await fileSystem.appendFile(path, content);
    },
    makeDirectory: async (path) => {
      await before('make folder', path);
      await fileSystem.makeDirectory(path);
    },
    rename: async (from, to) => {
      await before(`rename ${basename(from)} to`, to);
      await fileSystem.rename(from, to);
    },
    syncFolder: async (path) => {
      await before('flush folder', path);
      await fileSystem.syncFolder(path);
    },
    removeFile: async (path) => {
      await before('remove', path);
      await fileSystem.removeFile(path);
    },
  };
}
