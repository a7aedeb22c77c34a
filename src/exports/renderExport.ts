import type { ExportKind } from '../config/settings.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { ExportContext } from './exportContext.js';

/**
 * Each export is a function of the report and the run's context: its file's text. Each loads only when it is asked for
 * (the OpenTelemetry SDK with otlp): a run without exports loads none of them.
 */
const RENDERERS: Readonly<Record<ExportKind, (report: QualityReport, context: ExportContext) => Promise<string>>> = {
  otlp: async (report, context) => (await import('./otlp.js')).renderOtlp(report, context),
  prometheus: async (report, context) => (await import('./prometheus.js')).renderPrometheus(report, context),
  ctrf: async (report, context) => (await import('./ctrf.js')).renderCtrf(report, context),
  junit: async (report, context) => (await import('./junit.js')).renderJunit(report, context),
  'benchmark-action': async (report) => (await import('./benchmarkAction.js')).renderBenchmarkAction(report),
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
