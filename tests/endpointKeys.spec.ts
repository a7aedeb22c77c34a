import { expect, test } from './support/test.js';
import { runQualityWorkflow, type QualityReport } from '../src/index.js';
import { keyNamesLabel } from '../src/config/endpointKeyMatch.js';
import type { QualityToolConfig } from '../src/config/loadQualityToolConfig.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// Settings name endpoints by label (expectedStatusesByEndpoint, a budgets file's endpoints). A key written as routes
// write a parameter (`PUT /counterparties/:id`) names the label a contract writes (`PUT /counterparties/{id}`), and a
// key that names no endpoint of the run is a warning naming it, never statuses or limits silently applied to nothing.

const openapi = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'counterparties', version: '1' },
  paths: {
    '/counterparties': { get: { responses: { '200': { description: 'ok' } } } },
    '/counterparties/{id}': {
      put: { responses: { '200': { description: 'ok' }, '404': { description: 'gone' } } },
      delete: { responses: { '204': { description: 'deleted' } } },
    },
  },
});

const records = [
  { endpoint: 'GET /counterparties', statusCode: 200, responseTimeMs: 5 },
  { endpoint: 'PUT /counterparties/8', statusCode: 404, responseTimeMs: 7 },
  { endpoint: 'PUT /counterparties/9', statusCode: 200, responseTimeMs: 9 },
  { endpoint: 'DELETE /counterparties/8', statusCode: 204, responseTimeMs: 4 },
];

async function runWith(settings: Partial<QualityToolConfig>): Promise<{ report: QualityReport; warnings: readonly string[] }> {
  const fileSystem = new MemoryFileSystem({
    'input.json': JSON.stringify({ executions: records }),
    'openapi.json': openapi,
    'budgets.json': JSON.stringify(settings.budgets ?? {}),
  });
  const { report, warnings } = await runQualityWorkflow(
    {
      environment: 'ci',
      slowResponseThresholdMs: 750,
      inputPath: 'input.json',
      outputPath: 'out/q.json',
      openapi: ['openapi.json'],
      ...settings,
      ...(settings.budgets === undefined ? {} : { budgets: 'budgets.json' }),
    },
    { fileSystem },
  );
  return { report, warnings };
}

test('a :name segment of a key stands for any parameter of a label, {name} too; a literal segment for itself only', () => {
  expect(keyNamesLabel('PUT /counterparties/:id', 'PUT /counterparties/{id}')).toBe(true);
  expect(keyNamesLabel('put /counterparties/:id', 'PUT /counterparties/{counterpartyId}')).toBe(true);
  expect(keyNamesLabel('PUT /counterparties/{id}', 'PUT /counterparties/:id')).toBe(true);
  expect(keyNamesLabel('PUT /counterparties/:id', 'PUT /counterparties/me')).toBe(false);
  expect(keyNamesLabel('PUT /counterparties/:id', 'PUT /counterparties/8P0BlkWfpjRO60K1')).toBe(false);
  expect(keyNamesLabel('PUT /counterparties/:id', 'PUT /counterparties/8P0BlkWfpjRO60K1', { opaqueValues: true })).toBe(true);
  expect(keyNamesLabel('PUT /counterparties/:id', 'DELETE /counterparties/{id}')).toBe(false);
  expect(keyNamesLabel('PUT /counterparties/:id', 'PUT /counterparties/{id}/notes')).toBe(false);
});

test('expected statuses keyed "PUT /counterparties/:id" apply to the calls the contract labels PUT /counterparties/{id}', async () => {
  const { report, warnings } = await runWith({ expectedStatusesByEndpoint: { 'PUT /counterparties/:id': '200,404' } });

  expect(
    report.endpoints.map(({ endpoint, failedExecutionCount, expectedErrorCount }) => [endpoint, failedExecutionCount, expectedErrorCount]),
  ).toStrictEqual([
    ['DELETE /counterparties/{id}', 0, 0],
    ['GET /counterparties', 0, 0],
    ['PUT /counterparties/{id}', 0, 1],
  ]);
  expect(warnings).toStrictEqual([]);
});

test('a budget keyed "PUT /counterparties/:id" measures the contract’s PUT /counterparties/{id}', async () => {
  const { report, warnings } = await runWith({
    budgets: { endpoints: { 'PUT /counterparties/:id': { maxFailedExecutions: 0 } } },
  });

  expect(report.budgets?.results).toStrictEqual([
    { budget: 'maxFailedExecutions', endpoint: 'PUT /counterparties/{id}', limit: 0, actual: 1, passed: false },
  ]);
  expect(warnings).toStrictEqual([]);
});

test('a key of expectedStatusesByEndpoint or of the budgets that names no endpoint of the run is a warning naming it', async () => {
  const { report, warnings } = await runWith({
    expectedStatusesByEndpoint: { 'PUT /counterparty/:id': '404', 'GET /counterparties': '200' },
    budgets: { endpoints: { 'PATCH /counterparties/:id': { maxFailedExecutions: 0 } } },
  });

  expect(warnings).toStrictEqual([
    'expectedStatusesByEndpoint names "PUT /counterparty/:id", which matches no endpoint of this run: its statuses applied to no call ' +
      '(a key is an endpoint label as the report writes it, where a :name or {name} segment stands for any parameter)',
    'the budgets file "budgets.json" names the endpoint "PATCH /counterparties/:id", which matches no endpoint of this run: ' +
      'its limits measure nothing and breach (a key is an endpoint label as the report writes it, where a :name or {name} segment stands for any parameter)',
  ]);
  expect(report.budgets?.results).toStrictEqual([
    { budget: 'maxFailedExecutions', endpoint: 'PATCH /counterparties/:id', limit: 0, actual: null, passed: false },
  ]);
});
