import type { QualityReport } from '../qualityReport.js';

/** `quality-summary.json`'s bytes: JSON, 2-space indent, trailing newline, no timestamps. */
export function formatReport(report: QualityReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
