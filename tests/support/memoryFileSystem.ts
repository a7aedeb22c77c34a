import { Readable } from 'node:stream';
import { dirname, join } from 'node:path';
import type { FileFacts, FileKind, FileSystem } from '../../src/index.js';

/** Which file-system operation a test wants to fail, and how. */
export type FailingOperation = 'readFile' | 'createFile' | 'appendFile' | 'makeDirectory' | 'rename';

/**
 * An in-memory FileSystem built from an object map of path → content. It
 * records every write so a spec can assert that nothing was written, and can
 * be told to fail one operation with a Node-style error code. Paths are
 * taken as written (no `..` resolution); `link` and `place` add symbolic
 * links and things that are not files (a device, a FIFO).
 */
export class MemoryFileSystem implements FileSystem {
  readonly files: Map<string, string>;
  readonly folders = new Set<string>(['.', '/']);
  readonly writes: string[] = [];
  /** Files given as bytes (inputs that are not valid UTF-8), read by `openChunks`. */
  readonly bytes = new Map<string, Buffer>();
  /** Files whose modification time a spec set, in ms since the epoch. */
  readonly modified = new Map<string, number>();
  private readonly failures = new Map<FailingOperation, string>();
  private readonly links = new Map<string, string>();
  private readonly others = new Map<string, FileKind>();
  private readonly inodes = new Map<string, number>();

  constructor(files: Readonly<Record<string, string>> = {}) {
    this.files = new Map(Object.entries(files));
    for (const path of this.files.keys()) this.addFolders(dirname(path));
  }

  /** Makes every later call of `operation` fail with an error carrying `code`. */
  failOn(operation: FailingOperation, code: string): this {
    this.failures.set(operation, code);
    return this;
  }

  /** Puts a symbolic link at `path` pointing to `target` (taken as a path from the working folder). */
  link(path: string, target: string): this {
    this.links.set(path, target);
    this.addFolders(dirname(path));
    return this;
  }

  /** Puts something that is not a file or a folder at `path`. */
  place(path: string, kind: FileKind): this {
    this.others.set(path, kind);
    this.addFolders(dirname(path));
    return this;
  }

  readFile(path: string): Promise<string> {
    this.throwIfFailing('readFile', path);
    const content = this.files.get(this.follow(path));
    if (content === undefined) return Promise.reject(nodeError('ENOENT', path));
    return Promise.resolve(content);
  }

  /** Puts a file given as bytes at `path`. */
  putBytes(path: string, content: Buffer): this {
    this.bytes.set(path, content);
    this.addFolders(dirname(path));
    return this;
  }

  openChunks(path: string): Promise<AsyncIterable<Buffer>> {
    this.throwIfFailing('readFile', path);
    const content = this.bytes.get(this.follow(path)) ?? this.files.get(this.follow(path));
    if (content === undefined) return Promise.reject(nodeError('ENOENT', path));
    const bytes = Buffer.from(content);
    // Small chunks, so that every reader meets records split across chunks.
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 7) chunks.push(bytes.subarray(start, start + 7));
    return Promise.resolve(Readable.from(chunks));
  }

  stat(path: string): Promise<FileFacts | undefined> {
    return this.lstat(this.follow(path));
  }

  lstat(path: string): Promise<FileFacts | undefined> {
    const kind: FileKind | undefined = this.links.has(path)
      ? 'symbolic link'
      : this.files.has(path) || this.bytes.has(path)
        ? 'file'
        : this.folders.has(path)
          ? 'folder'
          : this.others.get(path);
    if (kind === undefined) return Promise.resolve(undefined);
    return Promise.resolve({ kind, device: 1, inode: this.inodeOf(path), modifiedMs: this.modified.get(path) ?? Date.now() });
  }

  realPath(path: string): Promise<string> {
    return Promise.resolve(this.follow(path));
  }

  listFolder(path: string): Promise<string[]> {
    const names = [...this.files.keys(), ...this.folders, ...this.links.keys(), ...this.others.keys()].filter(
      (entry) => entry !== path && dirname(entry) === path,
    );
    return Promise.resolve(names.map((entry) => entry.slice(path === '.' ? 0 : path.length + 1)));
  }

  createFile(path: string, content: string): Promise<void> {
    this.throwIfFailing('createFile', path);
    if (!this.folders.has(dirname(path))) return Promise.reject(nodeError('ENOENT', path));
    if (this.files.has(path) || this.links.has(path) || this.others.has(path)) return Promise.reject(nodeError('EEXIST', path));
    this.writes.push(path);
    this.files.set(path, content);
    return Promise.resolve();
  }

  appendFile(path: string, content: string): Promise<void> {
    this.throwIfFailing('appendFile', path);
    if (!this.folders.has(dirname(path))) return Promise.reject(nodeError('ENOENT', path));
    this.writes.push(path);
    this.files.set(path, (this.files.get(path) ?? '') + content);
    return Promise.resolve();
  }

  makeDirectory(path: string): Promise<void> {
    this.throwIfFailing('makeDirectory', path);
    if (!this.folders.has(dirname(path))) return Promise.reject(nodeError('ENOENT', path));
    if (this.folders.has(path) || this.files.has(path)) return Promise.reject(nodeError('EEXIST', path));
    this.folders.add(path);
    return Promise.resolve();
  }

  rename(from: string, to: string): Promise<void> {
    this.throwIfFailing('rename', to);
    const content = this.files.get(from);
    if (content === undefined) return Promise.reject(nodeError('ENOENT', from));
    this.files.delete(from);
    this.links.delete(to);
    this.others.delete(to);
    this.files.set(to, content);
    return Promise.resolve();
  }

  syncFolder(_path: string): Promise<void> {
    return Promise.resolve();
  }

  removeFile(path: string): Promise<void> {
    this.files.delete(path);
    return Promise.resolve();
  }

  // Where a chain of links ends (at most 40 links, as Linux allows).
  private follow(path: string): string {
    let at = path;
    for (let hops = 0; hops < 40; hops++) {
      const target = this.links.get(at);
      if (target === undefined) return at;
      at = target.startsWith('/') ? target : join(dirname(at), target);
    }
    return at;
  }

  private inodeOf(path: string): number {
    let inode = this.inodes.get(path);
    if (inode === undefined) {
      inode = this.inodes.size + 1;
      this.inodes.set(path, inode);
    }
    return inode;
  }

  private addFolders(path: string): void {
    for (let folder = path; !this.folders.has(folder); folder = dirname(folder)) this.folders.add(folder);
  }

  private throwIfFailing(operation: FailingOperation, path: string): void {
    const code = this.failures.get(operation);
    if (code !== undefined) throw nodeError(code, path);
  }
}

function nodeError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated failure, '${path}'`), { code });
}
