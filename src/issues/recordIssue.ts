import { formatIssuePath } from './issuePath.js';
import { describeLocation, type RecordLocation } from './location.js';

/** One problem with one record, or with a document's top level, as data. */
export interface RecordIssue {
  /** Where the record is. */
  readonly location: RecordLocation;
  /** The field at fault inside the record, as keys and indexes; empty for the record as a whole. */
  readonly path: readonly PropertyKey[];
  /** The rule the value breaks. */
  readonly expected: string;
  /** What was there instead, safe to print: `found 600 (a number)`, or `it is missing`. */
  readonly found: string;
}

/**
 * An issue in words, on one line, the field in the one path grammar
 * ({@link formatIssuePath}). A list location and the field read as one path
 * (`executions[1].statusCode: ...`); other locations are followed by the
 * field (`line 12 of b.ndjson, statusCode: ...`).
 */
export function describeIssue({ location, path, expected, found }: RecordIssue): string {
  const field = formatIssuePath(path);
  let place: string;
  if (location.kind === 'list') {
    // `executions[1].statusCode`, the input named after it when a run has several.
    const element = formatIssuePath(path, `${location.listPath}[${location.index}]`);
    place = location.file === undefined ? element : `${element} of ${location.file}`;
  } else {
    const where = describeLocation(location);
    place = field === '' ? where : `${where}, ${field}`;
  }
  return `${place}: ${expected}${found === '' ? '' : `; ${found}`}`;
}

/**
 * `summary:` then one indented line per listed problem, and "... and N more"
 * when `totalCount` exceeds the lines listed.
 */
export function formatIssueList(summary: string, lines: readonly string[], totalCount: number, more = 'more'): string {
  const listed = lines.map((line) => `  - ${line}`);
  if (totalCount > lines.length) listed.push(`  ... and ${totalCount - lines.length} ${more}`);
  return `${summary}:\n${listed.join('\n')}`;
}
