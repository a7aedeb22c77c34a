import type { ExportKind } from '../config/settings.js';
import type { QualityReport } from '../report/qualityReport.js';
import { renderBenchmarkAction } from './benchmarkAction.js';
import { renderCtrf } from './ctrf.js';
import type { ExportContext } from './exportContext.js';
import { renderJunit } from './junit.js';
import { renderPrometheus } from './prometheus.js';

/** Each export is a function of the report and the run's context: its file's text. */
const RENDERERS: Readonly<Record<ExportKind, (report: QualityReport, context: ExportContext) => string | Promise<string>>> = {
  // The OpenTelemetry SDK loads only when this export is asked for.
  otlp: async (report, context) => (await import('./otlp.js')).renderOtlp(report, context),
  prometheus: renderPrometheus,
  ctrf: renderCtrf,
  junit: renderJunit,
  'benchmark-action': renderBenchmarkAction,
};

/** The text of one export of a report. */
export async function renderExport(kind: ExportKind, report: QualityReport, context: ExportContext): Promise<string> {
  return RENDERERS[kind](report, context);
}

/**
 * Checks before a run that an export can be made at its end: the OpenTelemetry SDK is installed when otlp is asked for (a
 * ConfigurationError, 78, otherwise).
 */
export async function checkExportsCanBeMade(kinds: readonly ExportKind[]): Promise<void> {
  if (kinds.includes('otlp')) await (await import('./otlp.js')).loadOtlpSdk();
}
