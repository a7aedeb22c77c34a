import { isAbsolute, relative } from 'node:path';

/** A path as a message shows it: relative to `cwd` when it is inside it, else as given. */
export function displayPath(path: string, cwd: string): string {
  const fromHere = relative(cwd, path);
  return fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? path : fromHere;
}
