import type { RecordIssue } from '../issues/recordIssue.js';
import type { RecordLocation } from '../issues/location.js';
import type { EndpointBytes, ScannedFields } from './recordScanner.js';

/**
 * Records as a reader yields them: raw (not yet validated), a batch at a
 * time, each with a location that is made only when a message needs it.
 */
export interface RecordBatch {
  readonly records: readonly unknown[];
  /** Where `records[index]` is. */
  location(index: number): RecordLocation;
  /** The endpoints were derived from URLs (a HAR file), not written by people: grouped automatically by default. */
  readonly derivedEndpoints?: boolean;
  /** Beside `records`, the bodies a HAR file kept of each entry, for a run with a contract to check (never part of a record). */
  readonly bodies?: readonly (RecordedBodies | undefined)[];
  /**
   * NDJSON and JSON documents: the records the byte scanner read (see recordScanner.ts), whose
   * place in `records` holds undefined; the others are in `records` as
   * `JSON.parse` read them.
   */
  readonly scanned?: ScannedColumns;
}

/**
 * The fields of the records a batch's byte scanner read, by their place in
 * the batch: the endpoint's id among the input's {@link EndpointBytes} (-1:
 * not scanned, the record is in `records`), status code and time; and where
 * each record's line is, so that one can still be parsed whole when its
 * evidence needs more (a failed call, one of the slowest).
 */
export class ScannedColumns {
  endpoint: Int32Array;
  statusCode: Uint16Array;
  responseTimeMs: Float64Array;
  private lines: Int32Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private idStarts: Int32Array;
  private idEnds: Int32Array;

  constructor(
    private readonly bytes: Buffer,
    readonly endpoints: EndpointBytes,
    /** NDJSON: the file whose lines the records are on, as the batch's locations name it (`{ kind: 'line', file, line: lineOf(index) }`). */
    readonly lineFile?: string,
  ) {
    const capacity = Math.max(16, Math.ceil(bytes.length / 64));
    this.endpoint = new Int32Array(capacity);
    this.statusCode = new Uint16Array(capacity);
    this.responseTimeMs = new Float64Array(capacity);
    this.lines = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.idStarts = new Int32Array(capacity);
    this.idEnds = new Int32Array(capacity);
  }

  /** The scanned record at place `index`, on `line`, its bytes `[start, end)`. */
  add(index: number, fields: ScannedFields, line: number, start: number, end: number): void {
    if (index >= this.endpoint.length) this.grow();
    this.endpoint[index] = fields.endpoint;
    this.statusCode[index] = fields.statusCode;
    this.responseTimeMs[index] = fields.responseTimeMs;
    this.lines[index] = line;
    this.starts[index] = start;
    this.ends[index] = end;
    this.idStarts[index] = fields.idStart;
    this.idEnds[index] = fields.idEnd;
  }

  /** A record at place `index` that the scanner did not read, on `line`. */
  addUnscanned(index: number, line: number): void {
    if (index >= this.endpoint.length) this.grow();
    this.endpoint[index] = -1;
    this.lines[index] = line;
  }

  lineOf(index: number): number {
    return this.lines[index]!;
  }

  /** The `id` of the scanned record at place `index`, when it has one. */
  idOf(index: number): string | undefined {
    const start = this.idStarts[index]!;
    return start < 0 ? undefined : this.bytes.toString('latin1', start, this.idEnds[index]);
  }

  /** The scanned record at place `index` as `JSON.parse` reads it. */
  record(index: number): unknown {
    return JSON.parse(this.bytes.toString('latin1', this.starts[index], this.ends[index])) as unknown;
  }

  private grow(): void {
    const capacity = this.endpoint.length * 2;
    this.endpoint = grown(this.endpoint, new Int32Array(capacity));
    this.statusCode = grown(this.statusCode, new Uint16Array(capacity));
    this.responseTimeMs = grown(this.responseTimeMs, new Float64Array(capacity));
    this.lines = grown(this.lines, new Int32Array(capacity));
    this.starts = grown(this.starts, new Int32Array(capacity));
    this.ends = grown(this.ends, new Int32Array(capacity));
    this.idStarts = grown(this.idStarts, new Int32Array(capacity));
    this.idEnds = grown(this.idEnds, new Int32Array(capacity));
  }
}

function grown<Array extends Int32Array | Uint16Array | Float64Array>(array: Array, larger: Array): Array {
  larger.set(array);
  return larger;
}

/** A body as a HAR file keeps it: `content.text` (base64 when `encoding` says so) and its media type, or a request's `postData`. */
export interface RecordedBody {
  readonly text: string;
  readonly mimeType?: string | undefined;
  readonly encoding?: string | undefined;
}

/**
 * The bodies of one HAR entry that its recorder kept, and what a contract's
 * conditions are read from besides: the request's URL, headers and form
 * fields. Read from the entry, never kept in a record.
 */
export interface RecordedBodies {
  readonly response?: RecordedBody | undefined;
  readonly request?: RecordedBody | undefined;
  /** The request's URL as the recorder wrote it. */
  readonly url?: string | undefined;
  readonly headers?: readonly (readonly [string, string])[] | undefined;
  /** `postData.params`: a form body's fields with a value. */
  readonly formFields?: readonly (readonly [string, string])[] | undefined;
}

/** The input formats a reader exists for. */
export const INPUT_FORMATS = ['json', 'ndjson', 'har'] as const;

/** One of {@link INPUT_FORMATS}. */
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** What a reader counts besides its records, and the problems it finds in its format's own shape. */
export interface ReadTally {
  /** HAR entries for page assets (documents, scripts, styles, images, fonts, media), left out. */
  skippedAssetCount: number;
  /** Whether any input was a HAR file, so the report says how many assets it left out. */
  readHar: boolean;
  /** Problems with a format's own shape (a HAR entry without a request), as validation issues. */
  readonly issues: RecordIssue[];
  /** How many such problems there were, listed or not. */
  issueCount: number;
}

/** A fresh tally. */
export function createReadTally(): ReadTally {
  return { skippedAssetCount: 0, readHar: false, issues: [], issueCount: 0 };
}
