import { expect, test } from './support/test.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { JSON_SCHEMA_FILES, buildReport, createQualityEvidenceJsonSchemas, formatReport, summariseExecutions } from '../src/index.js';
import { repositoryRoot } from './support/runProgram.js';

// The published JSON Schemas come from the zod schemas the code validates
// with; these specs pin the parts a consumer relies on.
const schemas = createQualityEvidenceJsonSchemas();

for (const [name, file] of Object.entries(JSON_SCHEMA_FILES)) {
  test(`schemas/${file} is the current ${name} schema (npm run schemas writes it)`, async () => {
    const committed: unknown = JSON.parse(await readFile(join(repositoryRoot, 'schemas', file), 'utf8'));
    expect(committed).toEqual(schemas[name as keyof typeof schemas]);
  });
}

test('the input schema accepts an object with an executions array or a bare array of records', () => {
  const record = {
    type: 'object',
    title: 'ExecutionRecord',
    properties: {
      statusCode: {
        type: 'integer',
        minimum: 100,
        maximum: 599,
        description: 'HTTP status code, 100 to 599 inclusive; absent when the call got no response',
      },
      errorCode: {
        type: 'string',
        pattern: String.raw`^\S{1,64}$`,
        description: 'Only for a call that got no response: the error code, e.g. ECONNREFUSED, ENOTFOUND, ETIMEDOUT, ECONNRESET',
        examples: ['ECONNREFUSED'],
      },
      endpoint: {
        type: 'string',
        pattern: String.raw`^\s*([!#$%&'*+\-.^_` + '`' + String.raw`|~0-9A-Za-z]+)[ \t]+(\/\S*)\s*$`,
        maxLength: 2048,
        description: 'Endpoint label `<METHOD> <path>`, e.g. `GET /orders`',
        examples: ['GET /orders'],
      },
      responseTimeMs: {
        type: 'number',
        minimum: 0,
        maximum: 86_400_000,
        description: 'Response time in milliseconds; for a call that got no response, the time until it failed',
      },
      id: { type: 'string', maxLength: 1024, description: 'Optional identifier of the execution' },
      timingMs: {
        type: 'object',
        title: 'TimingPhases',
        description: 'Phases of the call in milliseconds; a phase the source did not give is absent',
        properties: {
          dns: { type: 'number', minimum: 0, maximum: 86_400_000, description: 'DNS lookup' },
          connect: { type: 'number', minimum: 0, maximum: 86_400_000, description: 'TCP connect (a reused connection has none)' },
          tls: { type: 'number', minimum: 0, maximum: 86_400_000, description: 'TLS handshake' },
          wait: {
            type: 'number',
            minimum: 0,
            maximum: 86_400_000,
            description: 'From the request sent to the first byte of the response (time to first byte)',
          },
          receive: { type: 'number', minimum: 0, maximum: 86_400_000, description: 'From the first to the last byte of the response' },
        },
      },
      expectedStatuses: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['number', 'string'] } }],
        description:
          'Optional: the statuses this call expects (a negative test), overriding the run-wide and per-endpoint rules: ' +
          'codes and inclusive ranges, comma-separated, or an array of codes and range strings',
        examples: ['404', '200-299,403'],
      },
      bodyCheck: expect.objectContaining({ type: 'object', title: 'BodyCheck' }),
      conditions: expect.objectContaining({ type: 'object', title: 'ConditionsMet' }),
      traceId: expect.objectContaining({ type: 'string', pattern: '^(?!0{32})[0-9a-f]{32}$' }),
      spanId: expect.objectContaining({ type: 'string', pattern: '^(?!0{16})[0-9a-f]{16}$' }),
      parentSpanId: expect.objectContaining({ type: 'string', pattern: '^(?!0{16})[0-9a-f]{16}$' }),
      startedAtMs: expect.objectContaining({ type: 'number', minimum: Date.UTC(2000, 0, 1), maximum: Date.UTC(2100, 0, 1) }),
      excerpt: {
        type: 'string',
        maxLength: 4097,
        description:
          'Optional, only with failureExcerptBytes set (off by default): the first bytes of the response body of a call ' +
          'that failed, every value under a key that looks secret replaced; shown with the failed call, never otherwise',
      },
      source: {
        type: 'string',
        enum: ['api', 'browser'],
        description:
          'Optional: which client made the call: "api" (a test\'s API client; the default) ' +
          'or "browser" (a web application\'s own fetch or XMLHttpRequest in a browser test). ' +
          "The report is split by source when any call is a browser's",
      },
    },
    required: ['endpoint', 'responseTimeMs'],
    oneOf: [{ required: ['statusCode'] }, { required: ['errorCode'] }],
  };

  expect(schemas.input).toEqual({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'QualityEvidenceInput',
    anyOf: [
      { type: 'object', properties: { executions: { type: 'array', items: record } }, required: ['executions'] },
      { type: 'array', items: record },
    ],
  });
});

test("a record's bodyCheck holds, per body, a count and at most 5 places and keywords, or one of the reasons a body was not validated", () => {
  const items = (schemas.input as { anyOf: { type: string; items: { properties: Record<string, unknown> } }[] }).anyOf[1]!.items;
  const outcome = (items.properties['bodyCheck'] as { properties: { response: { oneOf: unknown[] }; request: unknown } }).properties;
  expect(outcome.request).toEqual(outcome.response);
  expect(outcome.response.oneOf).toEqual([
    {
      type: 'object',
      properties: {
        validated: { type: 'boolean', const: true },
        violationCount: { type: 'integer', minimum: 0, maximum: 1_000_000 },
        violations: {
          type: 'array',
          maxItems: 5,
          items: expect.objectContaining({
            type: 'object',
            properties: { pointer: expect.objectContaining({ maxLength: 1024 }), keyword: { type: 'string', minLength: 1, maxLength: 64 } },
            required: ['pointer', 'keyword'],
          }),
        },
      },
      required: ['validated', 'violationCount'],
    },
    {
      type: 'object',
      properties: {
        validated: { type: 'boolean', const: false },
        reason: { type: 'string', enum: ['noSchema', 'notJson', 'tooLarge', 'emptyBody', 'schemaUnusable', 'tooDeep'] },
      },
      required: ['validated', 'reason'],
    },
  ]);
});

test('the report schema fixes schemaVersion 2, requires the SPEC fields, the no-response counts and the statistics, and allows no other', () => {
  expect(schemas.report).toMatchObject({
    title: 'QualityReport',
    type: 'object',
    additionalProperties: false,
    required: [
      'schemaVersion',
      'environment',
      'slowResponseThresholdMs',
      'expectedStatuses',
      'executionCount',
      'failedExecutionCount',
      'slowExecutionCount',
      'failureCountByEndpoint',
      'slowEndpoints',
      'noResponseCount',
      'noResponseEndpoints',
      'expectedErrorCount',
      'statusCodes',
      'responseTimeMs',
      'endpoints',
      'slowestExecutions',
    ],
    properties: {
      schemaVersion: { type: 'number', const: 2 },
      slowEndpoints: { type: 'array', items: { type: 'string' } },
      noResponseCount: { type: 'integer', minimum: 0 },
      unrecordedCallCount: { type: 'integer', minimum: 0 },
      unrecordedEndpoints: { type: 'array', items: { type: 'string' } },
    },
  });
});

test('the settings schema has the reporter option keys and $schema, and allows no other', () => {
  expect(schemas.settings).toMatchObject({
    title: 'QualityEvidenceSettings',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      environment: { type: 'string', minLength: 1 },
      slowResponseThresholdMs: { type: 'integer', minimum: 0 },
      outputFile: { type: 'string', minLength: 1 },
      quiet: { type: 'boolean' },
    },
  });
  expect(Object.keys(schemas.settings.properties ?? {})).toEqual([
    '$schema',
    'environment',
    'slowResponseThresholdMs',
    'outputFile',
    'quiet',
    'progress',
    'expectedStatuses',
    'expectedStatusesByEndpoint',
    'apiCalls',
    'routes',
    'endpointGrouping',
    'budgets',
    'baselinePath',
    'historyPath',
    'historyLimit',
    'historyReadOnly',
    'historyPartialRuns',
    'flakinessRuns',
    'dashboardPath',
    'baselineFromHistory',
    'significanceLevel',
    'failureExcerptBytes',
    'redactKeys',
    'openapi',
    'openapiBase',
    'exports',
    'serviceName',
    'traceContext',
    'traceUrlTemplate',
    'reportUrl',
    'otlpSpanLimit',
    'formats',
  ]);
});

test('the check observation schema lists the three states', () => {
  expect(schemas.checkObservation).toMatchObject({
    title: 'CheckObservation',
    required: ['endpoint', 'state', 'responseTimeMs'],
    properties: { state: { type: 'string', enum: ['pending', 'complete', 'failed'] } },
  });
});

test("the report schema lets an endpoint's sole status leave out its histogram, and no status of several", () => {
  const validate = addFormats.default(new Ajv2020({ strict: false })).compile(schemas.report);
  const report = buildReport(
    summariseExecutions(
      [
        { endpoint: 'GET /a', statusCode: 200, responseTimeMs: 10 },
        { endpoint: 'GET /a', statusCode: 503, responseTimeMs: 20 },
        { endpoint: 'GET /b', statusCode: 200, responseTimeMs: 5 },
      ],
      750,
    ),
    { environment: 'ci', slowResponseThresholdMs: 750 },
  );
  const written = JSON.parse(formatReport(report)) as { endpoints: { latencyByStatus: Record<string, unknown>[] }[] };
  const accepted = validate(written);
  delete written.endpoints[0]!.latencyByStatus[1]!['latencyHistogram'];
  expect([accepted, validate(written), validate.errors?.[0]?.instancePath]).toStrictEqual([true, false, '/endpoints/0/latencyByStatus/1']);
});
