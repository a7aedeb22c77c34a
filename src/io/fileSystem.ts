import { lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { textPieces } from './textPieces.js';

/**
 * How many bytes a read of a large input takes at a time. Small enough that
 * each chunk's records die young (cheap garbage collection, low peak memory),
 * large enough that per-chunk costs vanish: 512 KiB measured best on the
 * benchmark (4 MiB chunks took a third longer and twice the memory).
 */
export const READ_CHUNK_BYTES = 512 * 1024;

/** What kind of thing a path names. */
export type FileKind = 'file' | 'folder' | 'symbolic link' | 'FIFO' | 'socket' | 'character device' | 'block device';

/** What a run needs to know about an existing path. */
export interface FileFacts {
  readonly kind: FileKind;
  /** Device and inode: two paths name the same file when both are equal. */
  readonly device: number;
  readonly inode: number;
  /** Last modification, in milliseconds since the epoch. */
  readonly modifiedMs: number;
}

/** How a file is read in chunks. */
export interface ChunkOptions {
  /**
   * The chunks may be one buffer read into again: each is good only until
   * the next is asked for. For a reader that keeps none (the report copied
   * to standard output, each write waited for): a fresh buffer a chunk is
   * memory outside V8's heap that no young collection frees, tens of
   * megabytes of them before a full one. A file system may ignore it.
   */
  readonly reuseBuffer?: boolean;
}

/**
 * The file-system access the workflow needs, passed in explicitly so that
 * tests can use an in-memory implementation and see exactly what was written.
 */
export interface FileSystem {
  /** Reads a whole file as UTF-8 text. */
  readFile(path: string): Promise<string>;
  /**
   * Opens a file for reading in chunks; rejects at once when it cannot be
   * opened, so that a missing file is reported before anything is read.
   */
  openChunks(path: string, options?: ChunkOptions): Promise<AsyncIterable<Buffer>>;
  /** What is at a path, following symbolic links; undefined when nothing is (or a link points nowhere). */
  stat(path: string): Promise<FileFacts | undefined>;
  /** What is at a path itself, a symbolic link not followed; undefined when nothing is. */
  lstat(path: string): Promise<FileFacts | undefined>;
  /** The path with every symbolic link and `.`/`..` resolved; the path must exist. */
  realPath(path: string): Promise<string>;
  /** The names in a folder. */
  listFolder(path: string): Promise<string[]>;
  /**
   * Creates a new file with the UTF-8 text and flushes it to the disk. The
   * file must not exist: an existing file, or a symbolic link planted at the
   * path, fails with EEXIST and is never followed or replaced.
   */
  createFile(path: string, content: string): Promise<void>;
  /**
   * Optional: {@link createFile} with the text given in pieces (each whole
   * UTF-16, never half of a surrogate pair), written as they come, so that a
   * long report is never held whole. Without it, the pieces are joined and
   * given to createFile. {@link nodeFileSystem}'s is not enumerable: a
   * copy made by spreading it (`{ ...nodeFileSystem, createFile }`) does not
   * carry it, so a wrapper that changes createFile is never bypassed.
   */
  createFileFromPieces?(path: string, pieces: Iterable<string>): Promise<void>;
  /**
   * Adds UTF-8 text at the end of a file, creating it if it does not exist;
   * what is there stays. Never blocks: a FIFO that nothing reads fails
   * (ENXIO), as does one that is full (EAGAIN). The text goes in one write,
   * so two processes appending to one file never interleave.
   */
  appendFile(path: string, content: string): Promise<void>;
  /** Creates one folder whose parent exists; fails (EEXIST) if something is there. */
  makeDirectory(path: string): Promise<void>;
  /** Renames a file, replacing the target atomically where the platform allows. */
  rename(from: string, to: string): Promise<void>;
  /** Flushes a folder's entries to the disk (a rename in it survives a power loss), where the platform can; never fails. */
  syncFolder(path: string): Promise<void>;
  /** Removes a file; succeeds if it does not exist. */
  removeFile(path: string): Promise<void>;
}

/** The real file system, through `node:fs/promises`. */
export const nodeFileSystem: FileSystem = {
  // Decoding the whole buffer at once gives a flat string; readFile(path, 'utf8')
  // decodes chunk by chunk into a rope that JSON.parse must flatten first,
  // which costs about a third more on a 100 MB input (npm run bench).
  readFile: async (path) => (await readFile(path)).toString('utf8'),
  openChunks: async (path, options) => {
    const handle = await open(path, 'r');
    return options?.reuseBuffer === true
      ? chunksInto(handle, Buffer.allocUnsafe(READ_CHUNK_BYTES))
      : handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  },
  stat: (path) => factsOrNothing(stat(path)),
  lstat: (path) => factsOrNothing(lstat(path)),
  realPath: (path) => realpath(path),
  listFolder: (path) => readdir(path),
  createFile: (path, content) => createFromPieces(path, textPieces(content)),
  appendFile: async (path, content) => {
    // O_NONBLOCK: a job summary that is a FIFO with no reader must not hang the run.
    const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
    try {
      // One write(2) of the whole text on an O_APPEND descriptor: Linux holds the file's lock for the whole write on local
      // file systems, so another process's append lands before or after it, never inside (fs.appendFile writes 512 KiB at a time).
      const bytes = Buffer.from(content, 'utf8');
      const { bytesWritten } = await handle.write(bytes, 0, bytes.length, null);
      if (bytesWritten < bytes.length) throw Object.assign(new Error('only part of the text was appended'), { code: 'EAGAIN' });
    } finally {
      await handle.close();
    }
  },
  makeDirectory: async (path) => {
    await mkdir(path);
  },
  rename: (from, to) => rename(from, to),
  syncFolder: async (path) => {
    try {
      const handle = await open(path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Some file systems cannot sync a folder (EINVAL, EISDIR on some platforms); the rename stands all the same.
    }
  },
  removeFile: (path) => rm(path, { force: true }),
};

Object.defineProperty(nodeFileSystem, 'createFileFromPieces', {
  value: (path: string, pieces: Iterable<string>) => createFromPieces(path, pieces),
  enumerable: false,
});

/** How many bytes go to the disk in one write: the pieces are encoded into one buffer of this size, reused. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

// Each piece is encoded into the buffer where it fits (a short piece makes no buffer of its own), one write when it is full.
async function createFromPieces(path: string, pieces: Iterable<string>): Promise<void> {
  const handle = await open(path, 'wx');
  const writeAll = async (bytes: Uint8Array, length: number): Promise<void> => {
    for (let at = 0; at < length;) at += (await handle.write(bytes, at, length - at, null)).bytesWritten;
  };
  try {
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
    let used = 0;
    for (const piece of pieces) {
      // A UTF-16 code unit is at most 3 bytes of UTF-8 (a pair, two units, is 4).
      if (used + piece.length * 3 > buffer.length) {
        await writeAll(buffer, used);
        used = 0;
      }
      if (piece.length * 3 > buffer.length) {
        const bytes = Buffer.from(piece, 'utf8');
        await writeAll(bytes, bytes.length);
      } else used += buffer.write(piece, used, 'utf8');
    }
    await writeAll(buffer, used);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// A file's chunks, each read into the one buffer (see ChunkOptions.reuseBuffer); the file closed at the end, or when the reader stops.
async function* chunksInto(handle: FileHandle, buffer: Buffer): AsyncGenerator<Buffer> {
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function factsOrNothing(pending: Promise<Stats>): Promise<FileFacts | undefined> {
  try {
    const stats = await pending;
    return { kind: kindOf(stats), device: stats.dev, inode: stats.ino, modifiedMs: stats.mtimeMs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function kindOf(stats: Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'folder';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  return 'block device';
}
