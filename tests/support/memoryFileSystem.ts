import { Readable } from 'node:stream';
import { dirname } from 'node:path';
import type { FileSystem } from '../../src/index.js';

/** Which file-system operation a test wants to fail, and how. */
export type FailingOperation = 'readFile' | 'writeFile' | 'appendFile' | 'makeDirectory' | 'rename';

/**
 * An in-memory FileSystem built from an object map of path → content. It
 * records every write so a spec can assert that nothing was written, and can
 * be told to fail one operation with a Node-style error code.
 */
export class MemoryFileSystem implements FileSystem {
  readonly files: Map<string, string>;
  readonly folders = new Set<string>(['.', '/']);
  readonly writes: string[] = [];
  private readonly failures = new Map<FailingOperation, string>();

  constructor(files: Readonly<Record<string, string>> = {}) {
    this.files = new Map(Object.entries(files));
    for (const path of this.files.keys()) this.addFolders(dirname(path));
  }

  /** Makes every later call of `operation` fail with an error carrying `code`. */
  failOn(operation: FailingOperation, code: string): this {
    this.failures.set(operation, code);
    return this;
  }

  readFile(path: string): Promise<string> {
    this.throwIfFailing('readFile', path);
    const content = this.files.get(path);
    if (content === undefined) return Promise.reject(nodeError('ENOENT', path));
    return Promise.resolve(content);
  }

  openChunks(path: string): Promise<AsyncIterable<Buffer>> {
    this.throwIfFailing('readFile', path);
    const content = this.files.get(path);
    if (content === undefined) return Promise.reject(nodeError('ENOENT', path));
    const bytes = Buffer.from(content);
    // Small chunks, so that every reader meets records split across chunks.
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 7) chunks.push(bytes.subarray(start, start + 7));
    return Promise.resolve(Readable.from(chunks));
  }

  writeFile(path: string, content: string): Promise<void> {
    this.throwIfFailing('writeFile', path);
    if (!this.folders.has(dirname(path))) return Promise.reject(nodeError('ENOENT', path));
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
    this.addFolders(path);
    return Promise.resolve();
  }

  rename(from: string, to: string): Promise<void> {
    this.throwIfFailing('rename', to);
    const content = this.files.get(from);
    if (content === undefined) return Promise.reject(nodeError('ENOENT', from));
    this.files.delete(from);
    this.files.set(to, content);
    return Promise.resolve();
  }

  removeFile(path: string): Promise<void> {
    this.files.delete(path);
    return Promise.resolve();
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
