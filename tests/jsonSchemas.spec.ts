import { expect, test } from '@playwright/test';
import { createQualityEvidenceJsonSchemas } from '../src/index.js';

// The published JSON Schemas come from the zod schemas the code validates
// with; these specs pin the parts a consumer relies on.
const schemas = createQualityEvidenceJsonSchemas();

test('the input schema accepts an object with an executions array or a bare array of records', () => {
  const record = {
    type: 'object',
    title: 'ExecutionRecord',
    properties: {
      statusCode: { type: 'integer', minimum: 100, maximum: 599, description: 'HTTP status code, 100 to 599 inclusive' },
      endpoint: {
        type: 'string',
        pattern: String.raw`^\s*([!#$%&'*+\-.^_` + '`' + String.raw`|~0-9A-Za-z]+)[ \t]+(\/\S*)\s*$`,
        description: 'Endpoint label `<METHOD> <path>`, e.g. `GET /orders`',
        examples: ['GET /orders'],
      },
      responseTimeMs: { type: 'number', minimum: 0, description: 'Response time in milliseconds' },
      id: { type: 'string', description: 'Optional identifier of the execution' },
    },
    required: ['statusCode', 'endpoint', 'responseTimeMs'],
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

test('the report schema fixes schemaVersion 1, names every field and allows no other', () => {
  expect(schemas.report).toMatchObject({
    title: 'QualityReport',
    type: 'object',
    additionalProperties: false,
    required: ['schemaVersion', 'environment', 'slowResponseThresholdMs', 'executionCount', 'failedExecutionCount', 'slowExecutionCount', 'failureCountByEndpoint', 'slowEndpoints'],
    properties: { schemaVersion: { type: 'number', const: 1 }, slowEndpoints: { type: 'array', items: { type: 'string' } } },
  });
});

test('the check observation schema lists the three states', () => {
  expect(schemas.checkObservation).toMatchObject({
    title: 'CheckObservation',
    required: ['endpoint', 'state', 'responseTimeMs'],
    properties: { state: { type: 'string', enum: ['pending', 'complete', 'failed'] } },
  });
});
