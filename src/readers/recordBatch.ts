import type { RecordIssue } from '../issues/recordIssue.js';
import type { RecordLocation } from '../issues/location.js';

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
}

/** A body as a HAR file keeps it: `content.text` (base64 when `encoding` says so) and its media type, or a request's `postData`. */
export interface RecordedBody {
  readonly text: string;
  readonly mimeType?: string | undefined;
  readonly encoding?: string | undefined;
}

/** The bodies of one HAR entry that its recorder kept. */
export interface RecordedBodies {
  readonly response?: RecordedBody | undefined;
  readonly request?: RecordedBody | undefined;
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
