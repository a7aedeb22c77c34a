import type { QualityReport } from '../report/qualityReport.js';
import { bucketValue } from '../summary/latencyHistogram.js';
import { methodAndTemplate, type ExportContext } from './exportContext.js';
import { timesByStatusOf, type TimesByStatus } from './timesByStatus.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

/**
 * The Prometheus export: the text exposition format (version 0.0.4), as the
 * node exporter's textfile collector reads a `.prom` file and a Pushgateway
 * takes a push. The run's latency is a histogram per endpoint and status
 * class, with buckets, never quantiles (buckets add up across runs and
 * machines; quantiles do not), beside a few gauges of the run.
 *
 * Labels are kept few so that series stay bounded: `service` and
 * `environment` name the run (never a commit, branch or run id, which would
 * make new series every run); `http_request_method`, `url_template` and
 * `status_class` (1xx to 5xx, or no_response) name the series. Endpoints are
 * bounded already: the report's labels are templates.
 */

/** The buckets the HTTP semantic conventions advise for http.client.request.duration, in seconds. */
export const PROMETHEUS_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] as const;

/** The class of calls that got no response, beside 1xx to 5xx. */
export const NO_RESPONSE_CLASS = 'no_response';

const DURATION = 'http_client_request_duration_seconds';

/** The export's text. */
export function renderPrometheus(report: QualityReport, context: ExportContext): string {
  const run = { service: context.settings.serviceName, environment: report.environment };
  const lines = [
    `# HELP ${DURATION} Duration of HTTP client requests in the run, by endpoint and status class (quality-evidence).`,
    `# TYPE ${DURATION} histogram`,
  ];
  const failed: string[] = [];
  for (const entry of report.endpoints) {
    const { method, template } = methodAndTemplate(entry.endpoint);
    const endpoint = { ...run, http_request_method: method, url_template: template };
    for (const [statusClass, times] of byStatusClass(timesByStatusOf(entry, 'prometheus'))) {
      const labels = { ...endpoint, status_class: statusClass };
      const bins = times.flatMap(({ latencyHistogram }) =>
        latencyHistogram.bins.map(([bin, count]) => ({ seconds: bucketValue(bin) / 1000, count })),
      );
      const zeros = times.reduce((total, { latencyHistogram }) => total + latencyHistogram.zeroCount, 0);
      const count = times.reduce((total, { executionCount }) => total + executionCount, 0);
      for (const le of PROMETHEUS_BUCKETS_SECONDS) {
        // Each bin is counted where its value falls: within 1% of every time in it.
        const within = bins.reduce((total, bin) => (bin.seconds <= le ? total + bin.count : total), zeros);
        lines.push(`${DURATION}_bucket${labelText({ ...labels, le: String(le) })} ${within}`);
      }
      lines.push(`${DURATION}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`);
      lines.push(`${DURATION}_sum${labelText(labels)} ${numberText(times.reduce((total, { totalMs }) => total + totalMs, 0) / 1000)}`);
      lines.push(`${DURATION}_count${labelText(labels)} ${count}`);
    }
    failed.push(`quality_evidence_failed_executions${labelText(endpoint)} ${entry.failedExecutionCount}`);
  }
  lines.push(
    '# HELP quality_evidence_failed_executions Executions in the run that got no response or a status the rules did not expect, by endpoint.',
    '# TYPE quality_evidence_failed_executions gauge',
    ...failed,
  );
  if (report.budgets !== undefined) {
    lines.push(
      '# HELP quality_evidence_budgets_breached Quality budgets the run breached (0: every budget holds).',
      '# TYPE quality_evidence_budgets_breached gauge',
      `quality_evidence_budgets_breached${labelText(run)} ${report.budgets.results.filter((result) => !result.passed).length}`,
    );
  }
  lines.push(
    '# HELP quality_evidence_run_timestamp_seconds When the run ended, in seconds since the epoch: an alert can tell a gate that stopped running.',
    '# TYPE quality_evidence_run_timestamp_seconds gauge',
    `quality_evidence_run_timestamp_seconds${labelText(run)} ${numberText(context.endedAtMs / 1000)}`,
  );
  return `${lines.join('\n')}\n`;
}

/** An endpoint's times grouped by status class, 1xx to 5xx ascending, then no_response. */
function byStatusClass(times: readonly TimesByStatus[]): [string, TimesByStatus[]][] {
  const classes = new Map<string, TimesByStatus[]>();
  for (const entry of times) {
    const name = entry.statusCode === undefined ? NO_RESPONSE_CLASS : `${Math.floor(entry.statusCode / 100)}xx`;
    classes.set(name, [...(classes.get(name) ?? []), entry]);
  }
  // Status classes sort before no_response: digits come before letters.
  return [...classes].sort(([a], [b]) => compareCodeUnits(a, b));
}

/** Labels as the exposition format writes them: values with backslash, double quote and line feed escaped. */
function labelText(labels: Readonly<Record<string, string>>): string {
  return `{${Object.entries(labels)
    .map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',')}}`;
}

/** A sample value: JavaScript's shortest form, which the format reads as a Go float does. */
function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
}
