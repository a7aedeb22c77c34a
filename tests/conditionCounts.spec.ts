import { createBodyChecker } from '../src/contract/bodyConformance.js';
import { conditionsOfOperation } from '../src/contract/conditions.js';
import { conditionsRecordOf } from '../src/contract/conditionsMet.js';
import { loadContract } from '../src/contract/loadContract.js';
import { qualityReportSchema } from '../src/report/qualityReport.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { mergeReports } from '../src/run/mergeReports.js';
import { ConditionTally, decodePositions } from '../src/summary/conditionTally.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// How many calls met each condition (issue 38), not only whether one did:
// `metCounts` beside each conditionsMet entry's `met`. The calls below go
// through the body checker as the recording fixture's do, so the positions
// are the document's, found by kind rather than written by hand.

const DOCUMENT = `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets/{petId}:
    get:
      parameters:
        - { name: petId, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema:
                type: object
                required: [id]
                properties:
                  id: { type: integer }
                  nickname: { type: string }
`;

const contract = await loadContract(['/api/openapi.yaml'], new MemoryFileSystem({ '/api/openapi.yaml': DOCUMENT }));
const checker = await createBodyChecker(contract);
const { fingerprint, conditions } = conditionsOfOperation(contract, 0);
const STATUS = conditions.findIndex((condition) => condition.kind === 'status');
const NICKNAME = conditions.findIndex((condition) => condition.kind === 'optionalProperty' && condition.name === 'nickname');

/** The report of calls of GET /pets/{petId} answered 200 with these bodies, each examined as the recording fixture examines it. */
function reportOf(bodies: readonly unknown[]) {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 }, { judgement: { contract } });
  bodies.forEach((body, index) => {
    const examined = checker.examine(contract.operations[0]!, {
      path: `/pets/${index + 1}`,
      query: [],
      headers: [],
      statusCode: 200,
      responseContentType: 'application/json',
      responseBody: { text: JSON.stringify(body) },
      requestContentType: undefined,
      requestBody: undefined,
    });
    const record = {
      endpoint: 'GET /pets/:petId',
      statusCode: 200,
      responseTimeMs: 10,
      conditions: conditionsRecordOf(examined.conditions!),
    };
    run.take(record, () => ({ kind: 'list', listPath: 'executions', index }));
  });
  return run.finish();
}

const WITH = { id: 1, nickname: 'Rex' };
const WITHOUT = { id: 2 };

test(`three calls answered 200, two with the optional response property: metCounts counts 3 for the status's position and 2 \
for the property's`, () => {
  expect([STATUS, NICKNAME].every((position) => position >= 0)).toBe(true);
  const [entry] = reportOf([WITH, WITHOUT, WITH]).endpoints[0]!.conditionsMet!;
  const positions = decodePositions(entry!.met);
  expect(entry!.fingerprint).toBe(fingerprint);
  expect(entry!.callCount).toBe(3);
  expect(entry!.metCounts).toHaveLength(positions.length);
  expect(entry!.metCounts![positions.indexOf(STATUS)]).toBe(3);
  expect(entry!.metCounts![positions.indexOf(NICKNAME)]).toBe(2);
});

test('merged reports add the counts of a list: the shards of those three calls merge to the same counts as the run of all', () => {
  const merged = mergeReports([
    { report: reportOf([WITH, WITHOUT]), path: 'shard-1.json' },
    { report: reportOf([WITH]), path: 'shard-2.json' },
  ]);
  expect(merged.endpoints[0]!.conditionsMet).toStrictEqual(reportOf([WITH, WITHOUT, WITH]).endpoints[0]!.conditionsMet);
});

test('a merge with a report of a version before counts keeps the union of positions and gives no counts, never guessed ones', () => {
  const older = reportOf([WITH]);
  const entry = older.endpoints[0]!.conditionsMet![0]!;
  delete (entry as { metCounts?: unknown }).metCounts;
  const merged = mergeReports([
    { report: older, path: 'old.json' },
    { report: reportOf([WITHOUT]), path: 'new.json' },
  ]);
  const [list] = merged.endpoints[0]!.conditionsMet!;
  expect(list).toStrictEqual({ fingerprint, callCount: 2, met: entry.met, outside: '' });
});

test('a report whose metCounts do not line up with its positions is invalid, the message naming the entry', () => {
  const report = reportOf([WITH, WITHOUT]);
  const entry = report.endpoints[0]!.conditionsMet![0]!;
  const shorter = {
    ...report,
    endpoints: [{ ...report.endpoints[0]!, conditionsMet: [{ ...entry, metCounts: entry.metCounts!.slice(1) }] }],
  };
  const issues = qualityReportSchema.safeParse(shorter).error?.issues ?? [];
  expect(issues.map(({ path, message }) => ({ path, message }))).toStrictEqual([
    {
      path: ['endpoints', 0, 'conditionsMet', 0, 'metCounts'],
      message: `metCounts holds ${entry.metCounts!.length - 1} counts, but met holds ${entry.metCounts!.length} positions: one count per position met`,
    },
  ]);
  const above = {
    ...report,
    endpoints: [{ ...report.endpoints[0]!, conditionsMet: [{ ...entry, metCounts: entry.metCounts!.map(() => 3) }] }],
  };
  expect(qualityReportSchema.safeParse(above).error?.issues.map(({ message }) => message)).toStrictEqual([
    'metCounts holds a count above callCount (2): no more calls met a position than were examined',
  ]);
});

test(`counts of positions far apart (3, 4,095, 4,096 and 999,999, as a record may name them) come in ascending position \
order, one per position of met, merged as counted`, () => {
  const list = '00112233aabbccdd';
  const tally = new ConditionTally();
  tally.add({ fingerprint: list, met: [3, 4_096, 999_999] });
  tally.add({ fingerprint: list, met: [3, 4_095, 4_096] });
  const [counted] = tally.result();
  expect(decodePositions(counted!.met)).toStrictEqual([3, 4_095, 4_096, 999_999]);
  expect(counted!.metCounts).toStrictEqual([2, 1, 2, 1]);
  const merged = new ConditionTally();
  merged.merge([counted!]);
  merged.add({ fingerprint: list, met: [999_999] });
  expect(merged.result()[0]!.metCounts).toStrictEqual([2, 1, 2, 2]);
});
