import { extname } from 'node:path';
import type { InputFormat } from './recordBatch.js';
import { splitLines } from '../input/lineBreaks.js';

const EXTENSIONS: Readonly<Record<string, InputFormat>> = { '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.har': 'har' };

/** The format an input's file name says: `.json`, `.ndjson` or `.jsonl`, `.har`; undefined for any other. */
export function formatFromExtension(path: string): InputFormat | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/**
 * The format of an input from its first bytes, for stdin and for files with
 * another extension: `[` starts a JSON document; `{` starts a HAR file when
 * its first key is `log`, a JSON document when its first line is not a whole
 * record (or holds an `executions` list), and NDJSON otherwise.
 */
export function formatFromContent(head: Buffer): InputFormat {
  let text = head.toString('utf8', 0, Math.min(head.length, 1024 * 1024));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart();
  if (!start.startsWith('{')) return 'json';
  if (/^\{\s*"log"\s*:/.test(start)) return 'har';
  const firstLine = splitLines(start)[0] ?? '';
  try {
    const value: unknown = JSON.parse(firstLine);
    const isRecordObject =
      typeof value === 'object' && value !== null && !Array.isArray(value) && !('executions' in value) && !('log' in value);
    return isRecordObject ? 'ndjson' : 'json';
  } catch {
    return 'json';
  }
}
