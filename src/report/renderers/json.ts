import type { QualityReport } from '../qualityReport.js';

/**
 * A latency histogram's buckets as JSON.stringify indents them: only digits,
 * signs, commas, brackets and whitespace after the key. No text from input
 * can take this shape: every quote inside a string is escaped, and no other
 * key of the report is named "bins".
 */
const INDENTED_BINS = /"bins": \[([\d\s,[\]-]*)\]/g;

/**
 * `quality-summary.json`'s bytes: JSON, 2-space indent, trailing newline, no
 * timestamps. A histogram's `[index, count]` pairs stand on one line
 * (`"bins": [[81, 1], [116, 3]]`): indented one number to a line, they
 * would make most of the file.
 */
export function formatReport(report: QualityReport): string {
  const indented = JSON.stringify(report, null, 2);
  return `${indented.replace(INDENTED_BINS, (_, pairs: string) => `"bins": [${pairs.replace(/\s+/g, '').replaceAll(',', ', ')}]`)}\n`;
}
