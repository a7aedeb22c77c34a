/**
 * A short, safe description of a Node file-system failure: its code and a
 * fixed explanation. Node's own message is not used because it embeds the
 * path, which may come from an environment variable.
 */
export function describeFileSystemFailure(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const explanations: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'the path is a folder, not a file',
    ENOTDIR: 'a parent of the path is not a folder',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EEXIST: 'a file is in the way of a folder on the path',
    EBUSY: 'the path is busy (a folder or a mount point?)',
    ENAMETOOLONG: 'a name on the path is too long',
    ELOOP: 'too many symbolic links on the path',
    EMFILE: 'too many open files',
    EIO: 'input/output error',
    ESTALE: 'the file is gone from its network share',
    EDQUOT: 'the disk quota is used up',
    ENXIO: 'nothing reads the FIFO (or the device is not there)',
    EAGAIN: 'writing would block (a FIFO or a device that takes no more now)',
    // Node refuses a path holding a NUL byte before asking the system: no file name can hold one.
    ERR_INVALID_ARG_VALUE: 'the path holds a NUL byte, which no file name can hold',
    // Node refuses to read a file into one string past about 512 MiB.
    ERR_FS_FILE_TOO_LARGE: 'the file is too large to read (the limit is about 512 MiB)',
    ERR_STRING_TOO_LONG: 'the file is too large to read (the limit is about 512 MiB)',
  };
  if (code === undefined) return 'unknown file-system failure';
  return `${explanations[code] ?? 'file-system failure'} (${code})`;
}
