import { execFileSync } from 'node:child_process';
import { test } from './test.js';

/**
 * Mounts a tmpfs at `at` (an empty folder) with mount `options` such as
 * `ro,size=1m`, or skips the calling test, saying why and `what covers it`
 * instead: mount needs root and, in a container, CAP_SYS_ADMIN. Returns the
 * unmount, for a `finally`.
 */
export function mountTmpfsOrSkip(at: string, options: string, coveredBy: string): () => void {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' });
  } catch {
    test.skip(true, `mount is not permitted here (not root, or a container without CAP_SYS_ADMIN); ${coveredBy}`);
  }
  return () => execFileSync('umount', [at]);
}
