import { isUtf8 } from 'node:buffer';

/**
 * Inputs are decoded strictly: a byte that is not part of valid UTF-8 is an
 * error naming where it is, never replaced by U+FFFD, which would make
 * different byte strings one endpoint label.
 */

/** Whether `bytes[start, end)` is valid UTF-8 (checked natively, at memory speed). */
export function isValidUtf8(bytes: Buffer, start = 0, end = bytes.length): boolean {
  return isUtf8(bytes.subarray(start, end));
}

/**
 * The offset of the first byte in `bytes[start, end)` that is not part of a
 * valid UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing
 * past U+10FFFF), or -1. A sequence cut short by `end` is invalid.
 */
export function firstInvalidUtf8(bytes: Buffer, start = 0, end = bytes.length): number {
  if (isValidUtf8(bytes, start, end)) return -1;
  let at = start;
  while (at < end) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      at++;
      continue;
    }
    const [length, low, high] =
      lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead === 0xe0
          ? [3, 0xa0, 0xbf]
          : lead === 0xed
            ? [3, 0x80, 0x9f]
            : lead >= 0xe1 && lead <= 0xef
              ? [3, 0x80, 0xbf]
              : lead === 0xf0
                ? [4, 0x90, 0xbf]
                : lead === 0xf4
                  ? [4, 0x80, 0x8f]
                  : lead >= 0xf1 && lead <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return at;
    // The second byte has a narrower range for some leads; the others are 0x80 to 0xbf.
    for (let index = 1; index < length; index++) {
      const byte = bytes[at + index];
      const [min, max] = index === 1 ? [low, high] : [0x80, 0xbf];
      if (at + index >= end || byte === undefined || byte < min || byte > max) return at;
    }
    at += length;
  }
  return -1;
}

/** What is wrong at an invalid byte, for a message: `invalid UTF-8 (byte 0xFF); the input must be UTF-8 text`. */
export function describeInvalidUtf8(bytes: Buffer, at: number, subject = 'input'): string {
  return `invalid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')}); the ${subject} must be UTF-8 text`;
}
