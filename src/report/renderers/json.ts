import type { QualityReport } from '../qualityReport.js';

/**
 * `quality-summary.json`'s bytes: JSON, 2-space indent, trailing newline, no
 * timestamps. A histogram's `[index, count]` pairs stand on one line
 * (`"bins": [[81, 1], [116, 3]]`): indented one number to a line, they
 * would make most of the file. Each histogram's bins are written as one
 * marked string while the report is stringified, and the marks are then
 * taken out: only a histogram has a key named "bins", and the mark (a
 * control character, which JSON escapes) starts no string of the bins' own.
 * An endpoint's sole status is written without its histogram, the
 * endpoint's (schemaVersion 2, reportFile.ts); the report keeps it.
 */
export function formatReport(report: QualityReport): string {
  const indented = JSON.stringify(report, asWritten, 2);
  return `${indented.replaceAll(MARKED_BINS, '"bins": [$1]')}\n`;
}

const BINS_MARK = '\u0001';
const MARKED_BINS = /"bins": "\\u0001([^"]*)"/g;

function asWritten(this: unknown, key: string, value: unknown): unknown {
  if (
    key === 'latencyByStatus' &&
    Array.isArray(value) &&
    value.length === 1 &&
    typeof this === 'object' &&
    this !== null &&
    'latencyHistogram' in this
  ) {
    const { latencyHistogram: _endpoints, ...sole } = value[0] as Record<string, unknown>;
    return [sole];
  }
  if (key !== 'bins' || !Array.isArray(value) || typeof this !== 'object' || this === null || !('relativeAccuracy' in this)) return value;
  return `${BINS_MARK}${(value as readonly (readonly [number, number])[]).map(([index, count]) => `[${index}, ${count}]`).join(', ')}`;
}
