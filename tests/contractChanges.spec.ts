import { loadContract } from '../src/contract/loadContract.js';
import { contractChangesOf } from '../src/evaluation/contractChanges.js';
import { contractChangesSchema } from '../src/report/contractSchemas.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// The report's contract.changes lists at most 100 changes, breaking first, and counts them all.

const documentOf = (paths: readonly string[]) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'many', version: '1' },
    paths: Object.fromEntries(paths.map((path) => [path, { get: { responses: { '200': { description: 'ok' } } } }])),
  });

// What the weighing reads of a report: its endpoints (a report of records: no tests, no conditions).
const reportCalling = (endpoint: string, executionCount: number) =>
  ({ endpoints: [{ endpoint, executionCount }] }) as unknown as QualityReport;

test('past 100 changes the first 100 are listed, breaking first, omittedChangeCount counts the rest and the summary every one', async () => {
  const removed = Array.from({ length: 102 }, (_, index) => `/r${index + 1}`);
  const fileSystem = new MemoryFileSystem({ '/base.json': documentOf(removed), '/head.json': documentOf(['/r0']) });
  const base = await loadContract(['/base.json'], fileSystem);
  const head = await loadContract(['/head.json'], fileSystem);

  const changes = contractChangesOf(reportCalling('GET /r5', 3), base, head);

  expect(changes.summary).toStrictEqual({ breaking: 102, warning: 0, info: 1, breakingExercised: 1 });
  expect(changes.omittedChangeCount).toBe(3);
  expect(changes.base).toStrictEqual(['/base.json']);
  // The added operation (first in the diff: HEAD's order) is info, after every breaking change, and left out.
  expect(changes.changes.map((change) => `${change.rule} ${change.operation.path}`)).toStrictEqual(
    removed.slice(0, 100).map((path) => `operation-removed ${path}`),
  );
  expect(changes.changes[4]!.evidence).toStrictEqual({ exercised: true, calls: 3, unlistedTestCount: 0 });
  expect(contractChangesSchema.safeParse(changes).error?.issues).toBeUndefined();
});

test('up to 100 changes, every one is listed and there is no omittedChangeCount', async () => {
  const fileSystem = new MemoryFileSystem({ '/base.json': documentOf(['/a', '/b']), '/head.json': documentOf(['/a']) });
  const changes = contractChangesOf(
    reportCalling('GET /a', 1),
    await loadContract(['/base.json'], fileSystem),
    await loadContract(['/head.json'], fileSystem),
  );
  expect(changes).toStrictEqual({
    base: ['/base.json'],
    summary: { breaking: 1, warning: 0, info: 0, breakingExercised: 0 },
    changes: [
      {
        rule: 'operation-removed',
        level: 'breaking',
        operation: { method: 'GET', path: '/b', label: 'GET /b' },
        base: '#/paths/~1b/get',
        subject: { kind: 'operation' },
        message: 'GET /b: operation removed',
        evidence: { exercised: false },
      },
    ],
  });
});
