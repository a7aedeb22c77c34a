import type { ExportKind } from '../config/settings.js';
import type { QualityReport } from '../report/qualityReport.js';
import { renderBenchmarkAction } from './benchmarkAction.js';

/** Each export is a pure function of the report: its file's text. */
const RENDERERS: Readonly<Record<ExportKind, (report: QualityReport) => string>> = {
  'benchmark-action': renderBenchmarkAction,
};

/** The text of one export of a report. */
export function renderExport(kind: ExportKind, report: QualityReport): string {
  return RENDERERS[kind](report);
}
