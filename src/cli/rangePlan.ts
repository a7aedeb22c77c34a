import { open, stat } from 'node:fs/promises';
import { JsonListScanner, type ListPath } from '../readers/jsonListScanner.js';
import { initialClaims, MAX_PIECES, type PieceTable } from './rangeClaims.js';

/**
 * How a large input is cut into pieces for the threads that read it
 * (rangeClaims.ts): where each piece starts, each thread's region, and the
 * claims the threads share. Made on the main thread (parallelRanges.ts), or
 * by the first worker started early (earlyWorkers.ts), which then reads its
 * region while the main thread still loads.
 */
export type RangePlan = Omit<PieceTable, 'rules'> & {
  /** The input's size when planned: a plan is used only for the file it was made of. */
  readonly size: number;
  /** What it was planned with: another thread count or piece size plans differently. */
  readonly threads: number;
  readonly pieceBytes: number;
};

const WINDOW_BYTES = 1024 * 1024;
/** Where a cut between pieces is looked for: a record is shorter than this, or that cut is left out. */
const CUT_WINDOW_BYTES = 64 * 1024;

/**
 * The plan for reading `path` in ranges on `threads` threads, or undefined
 * when it is read in one piece: not a regular file of at least
 * `minimumBytes`, few records per endpoint, a JSON document whose list does
 * not open in its first megabyte, or no cut found.
 */
export async function planInput(
  path: string,
  format: 'json' | 'ndjson',
  { threads, minimumBytes, pieceBytes }: { readonly threads: number; readonly minimumBytes: number; readonly pieceBytes: number },
): Promise<RangePlan | undefined> {
  if (threads < 2) return undefined;
  // Looked at before it is opened: opening a FIFO would take the writer's
  // one stream from the read that follows, which would then wait forever.
  const stats = await stat(path).catch(() => undefined);
  if (stats === undefined || !stats.isFile() || stats.size < minimumBytes) return undefined;
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  let cut: { starts: number[]; size: number; list?: { path: ListPath; depth: number } } | undefined;
  try {
    const size = (await handle.stat()).size;
    cut = await planRanges(handle, format, size, Math.min(MAX_PIECES, Math.max(threads, Math.ceil(size / pieceBytes))));
  } finally {
    await handle.close();
  }
  if (cut === undefined) return undefined;
  const { starts, size, list } = cut;
  // Each thread's region: as many pieces each, the main thread's first.
  const regionCount = Math.min(threads, starts.length);
  const regions = Array.from({ length: regionCount }, (_, region) => Math.floor((region * starts.length) / regionCount));
  return {
    path,
    format,
    size,
    list,
    starts: [...starts, size],
    regions,
    claims: initialClaims(regions, starts.length),
    threads,
    pieceBytes,
  };
}

async function planRanges(
  handle: Awaited<ReturnType<typeof open>>,
  format: 'json' | 'ndjson',
  size: number,
  pieces: number,
): Promise<{ starts: number[]; size: number; list?: { path: ListPath; depth: number } } | undefined> {
  let list: { path: ListPath; depth: number } | undefined;
  const head = await readWindow(handle, 0, Math.min(size, WINDOW_BYTES));
  if (fewRecordsPerEndpoint(head, size)) return undefined;
  if (format === 'json') {
    // The list must open in the document's first megabyte, for the later ranges to know where they are.
    const scanner = new JsonListScanner([[], ['executions']]);
    try {
      scanner.push(head);
    } catch {
      return undefined;
    }
    const path = scanner.foundListPath();
    const depth = scanner.openListDepth();
    if (path === undefined || depth === undefined) return undefined;
    list = { path, depth };
  }
  const starts = [0];
  for (let piece = 1; piece < pieces; piece++) {
    const from = Math.floor((size * piece) / pieces);
    if (from <= starts[starts.length - 1]!) continue;
    const window = await readWindow(handle, from, Math.min(CUT_WINDOW_BYTES, size - from));
    const at = format === 'ndjson' ? ndjsonBoundary(window) : jsonBoundary(window);
    if (at !== undefined && from + at < size) starts.push(from + at);
  }
  return starts.length < 2 ? undefined : { starts, size, ...(list === undefined ? {} : { list }) };
}

/**
 * Whether the input looks like one of many endpoints each called a few
 * times, judged from its first megabyte: then it is read on one thread. Each
 * thread holds a tally for every endpoint its range meets, and the main
 * thread merges them, about 40 records' worth of reading an endpoint
 * (`npm run bench`, 50,000 endpoints x 10 records: one thread read it in
 * 1.1 s, two in 3.0 s). The endpoints are estimated from the distinct
 * endpoint values among the first records as if they were drawn at random
 * (d = E (1 - e^(-n/E)) for d distinct of n), the records from the file's
 * size; the threads read only when the records are at least 40 times the
 * endpoints. A wrong guess costs time, never a different report.
 */
function fewRecordsPerEndpoint(head: Buffer, size: number): boolean {
  const text = head.toString('latin1');
  const seen = new Set<string>();
  let sampled = 0;
  for (const [, endpoint] of text.matchAll(ENDPOINT_VALUE)) {
    sampled++;
    seen.add(endpoint!);
  }
  if (sampled < 100) return false;
  const records = (sampled * size) / head.length;
  return records < RECORDS_PER_ENDPOINT_FOR_THREADS * estimatedEndpoints(seen.size, sampled, records);
}

const ENDPOINT_VALUE = /"endpoint"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const RECORDS_PER_ENDPOINT_FOR_THREADS = 40;

/** The E for which E (1 - e^(-sampled/E)) is `distinct`, by bisection; at most `ceiling` (nearly every sampled one distinct). */
function estimatedEndpoints(distinct: number, sampled: number, ceiling: number): number {
  const expected = (endpoints: number) => endpoints * (1 - Math.exp(-sampled / endpoints));
  if (expected(ceiling) <= distinct) return ceiling;
  let low = distinct;
  let high = ceiling;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (expected(middle) < distinct) low = middle;
    else high = middle;
  }
  return high;
}

async function readWindow(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function ndjsonBoundary(window: Buffer): number | undefined {
  const newline = window.indexOf(0x0a);
  return newline < 0 ? undefined : newline + 1;
}

// The `{` of the first element that follows `}` and a comma.
function jsonBoundary(window: Buffer): number | undefined {
  const match = /\}\s*,\s*\{/.exec(window.toString('latin1'));
  return match === null ? undefined : match.index + match[0].length - 1;
}
