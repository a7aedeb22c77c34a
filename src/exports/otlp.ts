import type { ValueType } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ConfigurationError } from '../errors.js';
import { PACKAGE_VERSION } from '../packageVersion.js';
import type { QualityReport } from '../report/qualityReport.js';
import { bucketValue, type LatencyHistogram } from '../summary/latencyHistogram.js';
import { ciRunOf, methodAndTemplate, type ExportContext } from './exportContext.js';
import { exemplarKeyOf, exemplarsOf, hrTimeOf, spansOf, type OtlpExemplar } from './otlpSpans.js';
import { timesByStatusOf } from './timesByStatus.js';

/**
 * The OpenTelemetry export: OTLP JSON Lines, as the Collector's file
 * exporter writes and its file receiver reads. The first line (an
 * ExportMetricsServiceRequest) holds the histogram
 * `http.client.request.duration` (seconds, exponential buckets, delta
 * temporality) with one point per endpoint and status (or error code), the
 * attributes of the HTTP client semantic conventions, and the run on the
 * Resource. When the run kept traced calls (see spanSample.ts), a second
 * line (an ExportTraceServiceRequest) holds their spans, and each point
 * carries an exemplar linking it to the slowest of them (see otlpSpans.ts).
 * The points and spans are made in the OpenTelemetry JavaScript SDK's own
 * data model and written by its own JSON serialisers, loaded only when the
 * export is asked for (the SDK packages are optional peer dependencies);
 * the SDK's metric data model has no exemplars, so they are added to its JSON.
 */

/** The SDK packages the export loads, in the words of the install command that brings them. */
export const OTLP_PACKAGES = ['@opentelemetry/otlp-transformer', '@opentelemetry/sdk-metrics', '@opentelemetry/resources'] as const;

/**
 * The finest scale a point is given: buckets 2^(1/32) wide (2.2%), as wide
 * as the report's own histogram bins (2%) or wider, so that no bucket claims
 * more precision than the report holds.
 */
export const MAX_SCALE = 5;

/** The most buckets a point has: the SDK's own default (`maxSize` 160); the scale is lowered until the times fit. */
export const MAX_BUCKETS = 160;

/** An exponential histogram's positive buckets: bucket `offset + k` holds the values in (2^((offset+k) / 2^scale), 2^((offset+k+1) / 2^scale)]. */
export interface ExponentialBuckets {
  readonly scale: number;
  readonly offset: number;
  readonly bucketCounts: number[];
}

/** The bucket of a value greater than 0 at a scale. */
export function exponentialIndex(value: number, scale: number): number {
  return Math.ceil(Math.log2(value) * 2 ** scale) - 1;
}

/**
 * A report histogram (milliseconds) as exponential buckets of seconds: each
 * bin goes whole to the bucket that holds its value (within 1% of every time
 * in it), at the finest scale up to MAX_SCALE whose buckets number at most
 * MAX_BUCKETS. Times of 0 are the point's zero count, not a bucket.
 */
export function exponentialBucketsOf(histogram: LatencyHistogram): ExponentialBuckets {
  const bins = histogram.bins.map(([bin, count]) => ({ index: exponentialIndex(bucketValue(bin) / 1000, MAX_SCALE), count }));
  if (bins.length === 0) return { scale: MAX_SCALE, offset: 0, bucketCounts: [] };
  let scale = MAX_SCALE;
  let shift = 0;
  // A bucket at scale s - 1 holds buckets 2j and 2j + 1 of scale s: halving an index (rounding down) lowers the scale by one.
  while ((bins[bins.length - 1]!.index >> shift) - (bins[0]!.index >> shift) + 1 > MAX_BUCKETS) {
    scale--;
    shift++;
  }
  const offset = bins[0]!.index >> shift;
  const bucketCounts = new Array<number>((bins[bins.length - 1]!.index >> shift) - offset + 1).fill(0);
  for (const { index, count } of bins) bucketCounts[(index >> shift) - offset]! += count;
  return { scale, offset, bucketCounts };
}

/** The SDK modules, loaded once; a ConfigurationError (78) naming the install command when they are not installed. */
export async function loadOtlpSdk(): Promise<OtlpSdk> {
  try {
    const [transformer, metrics, resources] = await Promise.all([
      import('@opentelemetry/otlp-transformer'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/resources'),
    ]);
    return { transformer, metrics, resources };
  } catch {
    // The packages are optional: a missing one is a setting asking for what is not installed.
    throw new ConfigurationError([
      {
        variable: 'exports',
        message: `otlp needs the OpenTelemetry SDK, which is not installed: npm install --save-dev ${OTLP_PACKAGES.join(' ')}`,
      },
    ]);
  }
}

/** The three SDK modules the export is made with. */
export interface OtlpSdk {
  readonly transformer: typeof import('@opentelemetry/otlp-transformer');
  readonly metrics: typeof import('@opentelemetry/sdk-metrics');
  readonly resources: typeof import('@opentelemetry/resources');
}

/** The export's text: one JSON line. */
export async function renderOtlp(report: QualityReport, context: ExportContext): Promise<string> {
  const { transformer, metrics, resources } = await loadOtlpSdk();
  const endTime = hrTimeOf(context.endedAtMs);
  const startTime = hrTimeOf(context.startedAtMs ?? context.endedAtMs);
  const calls = context.spans ?? [];
  const exemplars = exemplarsOf(calls);
  // Each point's exemplar, or undefined, in the points' order: the serialiser keeps that order.
  const pointExemplars: (OtlpExemplar | undefined)[] = [];
  const dataPoints = report.endpoints.flatMap((entry) => {
    const { method, template } = methodAndTemplate(entry.endpoint);
    return timesByStatusOf(entry, 'otlp').map((times) => {
      pointExemplars.push(exemplars.get(exemplarKeyOf(entry.endpoint, times.statusCode ?? times.errorCode!)));
      const { scale, offset, bucketCounts } = exponentialBucketsOf(times.latencyHistogram);
      return {
        attributes: {
          'http.request.method': method,
          'url.template': template,
          ...(times.statusCode === undefined ? {} : { 'http.response.status_code': times.statusCode }),
          // The HTTP conventions: a client's error is the status code, as text, from 400 up; a call with no response names its error.
          ...(times.statusCode === undefined
            ? { 'error.type': times.errorCode! }
            : times.statusCode >= 400
              ? { 'error.type': String(times.statusCode) }
              : {}),
        },
        startTime,
        endTime,
        value: {
          count: times.executionCount,
          sum: times.totalMs / 1000,
          scale,
          zeroCount: times.latencyHistogram.zeroCount,
          positive: { offset, bucketCounts },
          negative: { offset: 0, bucketCounts: [] },
        },
      };
    });
  });
  const resource = resources.resourceFromAttributes(resourceAttributesOf(report, context));
  const scope = { name: 'quality-evidence', version: PACKAGE_VERSION };
  const resourceMetrics: ResourceMetrics = {
    resource,
    scopeMetrics: [
      {
        scope,
        metrics: [
          {
            descriptor: {
              name: 'http.client.request.duration',
              description: 'Duration of HTTP client requests.',
              unit: 's',
              valueType: DOUBLE,
            },
            aggregationTemporality: metrics.AggregationTemporality.DELTA,
            dataPointType: metrics.DataPointType.EXPONENTIAL_HISTOGRAM,
            dataPoints,
          },
        ],
      },
    ],
  };
  const bytes = transformer.JsonMetricsSerializer.serializeRequest(resourceMetrics);
  if (bytes === undefined) throw new Error('the OpenTelemetry SDK wrote no OTLP request');
  const metricsLine = withExemplars(new TextDecoder().decode(bytes), pointExemplars);
  if (calls.length === 0) return `${metricsLine}\n`;
  const traceBytes = transformer.JsonTraceSerializer.serializeRequest(spansOf(calls, resource, scope));
  if (traceBytes === undefined) throw new Error('the OpenTelemetry SDK wrote no OTLP trace request');
  return `${metricsLine}\n${new TextDecoder().decode(traceBytes)}\n`;
}

/**
 * The metrics request's JSON with each point's exemplar added (OTLP JSON:
 * `exemplars`, ids in hexadecimal): the SDK's metric data model has none
 * to give its serialiser. The same text when no point has one.
 */
function withExemplars(text: string, exemplars: readonly (OtlpExemplar | undefined)[]): string {
  if (exemplars.every((exemplar) => exemplar === undefined)) return text;
  // The SDK's own output, read back only to place the exemplars: its points are where its one metric is.
  const request: unknown = JSON.parse(text);
  const points = ['resourceMetrics', 0, 'scopeMetrics', 0, 'metrics', 0, 'exponentialHistogram', 'dataPoints'].reduce<unknown>(
    (value, key) => (typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>)[key] : undefined),
    request,
  );
  if (!Array.isArray(points) || points.length !== exemplars.length)
    throw new Error('the OpenTelemetry SDK wrote another number of points than it was given');
  points.forEach((point: unknown, index) => {
    const exemplar = exemplars[index];
    if (exemplar !== undefined && typeof point === 'object' && point !== null) Object.assign(point, { exemplars: [exemplar] });
  });
  return JSON.stringify(request);
}

/**
 * The run, on the Resource rather than on every point: the service, the
 * environment, and CI's commit, branch, repository, pipeline and run, by the
 * names of the semantic conventions (vcs.*, cicd.*).
 */
export function resourceAttributesOf(report: QualityReport, context: ExportContext): Record<string, string> {
  const run = ciRunOf(context.env);
  const attributes: Record<string, string | undefined> = {
    'service.name': context.settings.serviceName,
    'deployment.environment.name': report.environment,
    'vcs.ref.head.revision': run.commit,
    'vcs.ref.head.name': run.branch,
    'vcs.repository.url.full': run.repositoryUrl,
    'cicd.pipeline.name': run.pipelineName,
    'cicd.pipeline.run.id': run.runId,
    'cicd.pipeline.run.url.full': run.runUrl,
  };
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** `ValueType.DOUBLE` of @opentelemetry/api, whose module the export need not load for one number. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- ValueType.DOUBLE is 1 in every version of the API
const DOUBLE = 1 as ValueType;
