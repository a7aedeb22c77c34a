import type { QualityReport } from '../qualityReport.js';

/**
 * `quality-summary.json`'s bytes: JSON, 2-space indent, trailing newline, no
 * timestamps. A histogram's `[index, count]` pairs stand on one line
 * (`"bins": [[81, 1], [116, 3]]`): indented one number to a line, they
 * would make most of the file. Each histogram's bins are written as one
 * marked string while the report is stringified, and the marks are then
 * taken out: only a histogram has a key named "bins", and the mark (a
 * control character, which JSON escapes) starts no string of the bins' own.
 */
export function formatReport(report: QualityReport): string {
  const indented = JSON.stringify(report, binsOnOneLine, 2);
  const text = `${indented.replaceAll(MARKED_BINS, '"bins": [$1]')}\n`;
  // V8 keeps the subject of the last match (for RegExp.lastMatch and its kin): a match on a short string lets the
  // indented text go now, rather than hold it (77 MB at 50,000 endpoints) beside the result until some other match.
  FORGET_SUBJECT.test(' ');
  return text;
}

const FORGET_SUBJECT = / /;

const BINS_MARK = '\u0001';
const MARKED_BINS = /"bins": "\\u0001([^"]*)"/g;

function binsOnOneLine(this: unknown, key: string, value: unknown): unknown {
  if (key !== 'bins' || !Array.isArray(value) || typeof this !== 'object' || this === null || !('relativeAccuracy' in this)) return value;
  return `${BINS_MARK}${(value as readonly (readonly [number, number])[]).map(([index, count]) => `[${index}, ${count}]`).join(', ')}`;
}
