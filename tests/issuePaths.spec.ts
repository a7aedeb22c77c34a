import { expect, test } from './support/test.js';
import * as z from 'zod';
import { ConfigurationError, RecordValidationError } from '../src/index.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { optionSettings, settingsFileSettings } from '../src/config/settingsSources.js';
import { parseReport } from '../src/evaluation/parseReport.js';
import { formatIssuePath, validationIssuesOf } from '../src/issues/issuePath.js';
import { validateRecordList } from '../src/records/validateRecordList.js';
import { executionRecordSchema } from '../src/records/executionRecord.js';
import { parseBudgets } from '../src/workflow/judgement.js';
import { thrownBy } from './support/failures.js';

// One path grammar for every validation message: settings, records, budgets
// and baselines name a place inside a value alike.

test.describe('the path grammar', () => {
  for (const [path, root, text] of [
    [['statusCode'], '', 'statusCode'],
    [['timingMs', 'wait'], 'executions[1]', 'executions[1].timingMs.wait'],
    [['endpoints', 'GET /a', 'responseTimeMs', 'p95'], '', 'endpoints["GET /a"].responseTimeMs.p95'],
    [[1], 'QE_REPORT_FORMATS', 'QE_REPORT_FORMATS[1]'],
    [[0, 'label'], '', '[0].label'],
    [['endpoints', '__proto__'], '', 'endpoints.__proto__'],
    [['a\nb', '2x', ''], '', '["a\\nb"]["2x"][""]'],
  ] as const) {
    test(`${JSON.stringify(path)} from ${JSON.stringify(root)} is ${text}`, () => {
      expect(formatIssuePath(path, root)).toBe(text);
    });
  }

  test('a bidirectional control in a key is escaped and a long key is shortened', () => {
    expect(formatIssuePath(['GET /\u202Eabc'])).toBe('["GET /\\u202eabc"]');
    expect(formatIssuePath(['x'.repeat(200)])).toBe(`["${'x'.repeat(79)}…"]`);
  });
});

test.describe("zod's issues in the package's words", () => {
  const schema = z.strictObject({
    endpoints: z.record(
      z.string().regex(/^GET /, { error: 'must be a label' }),
      z.strictObject({ max: z.int().min(0, { error: 'must be 0 or more' }) }),
    ),
  });

  test('each unknown key is one issue at that key, worded by the reader', () => {
    const error = schema.safeParse({ endpoints: {}, extra: 1, other: 2 }).error!;
    expect(validationIssuesOf(error, { unknownKey: 'is not a budget' })).toStrictEqual([
      { path: ['extra'], message: 'is not a budget' },
      { path: ['other'], message: 'is not a budget' },
    ]);
  });

  test('a key a record refuses is reported at that key with its own rule', () => {
    const error = schema.safeParse({ endpoints: { 'POST /a': { max: 1 } } }).error!;
    expect(validationIssuesOf(error)).toStrictEqual([{ path: ['endpoints', 'POST /a'], message: 'must be a label' }]);
  });

  test('a place is named once, by its first issue', () => {
    const refined = z
      .union([z.string({ error: 'must be text' }), z.number({ error: 'must be text' })], { error: 'must be text' })
      .superRefine((_, context) => {
        context.addIssue({ code: 'custom', message: 'a later word' });
      });
    expect(validationIssuesOf(z.object({ a: refined }).safeParse({ a: true }).error!)).toStrictEqual([
      { path: ['a'], message: 'must be text' },
    ]);
  });
});

test.describe('every surface names the same place alike', () => {
  const badBudgets = { endpoints: { 'GET /orders': { responseTimeMs: { p95: -5 } } } };
  const rule = 'must be a number of milliseconds, 0 or more';

  test('a budgets file', () => {
    expect((thrownBy(() => parseBudgets(JSON.stringify(badBudgets), 'ci/budgets.json')) as Error).message).toBe(
      `invalid budgets:\n  - endpoints["GET /orders"].responseTimeMs.p95 in "ci/budgets.json": ${rule}`,
    );
  });

  test('the reporter option budgets', () => {
    const source = optionSettings({ budgets: badBudgets }, { owner: 'quality-evidence/reporter', base: '/project' });
    expect((thrownBy(() => resolveSettings([source])) as Error).message).toBe(
      `invalid configuration:\n  - option budgets.endpoints["GET /orders"].responseTimeMs.p95: ${rule}; got -5 (a number)`,
    );
  });

  test('the settings file key budgets', () => {
    const source = settingsFileSettings('/ci/quality-evidence.config.json', JSON.stringify({ budgets: badBudgets }));
    expect((thrownBy(() => resolveSettings([source])) as Error).message).toBe(
      `invalid configuration:\n  - budgets.endpoints["GET /orders"].responseTimeMs.p95 in /ci/quality-evidence.config.json: ${rule}; got -5 (a number)`,
    );
  });

  test('a list item in a settings file', () => {
    const source = settingsFileSettings('/ci/quality-evidence.config.json', JSON.stringify({ routes: ['/orders/:id', 7] }));
    expect((thrownBy(() => resolveSettings([source])) as Error).message).toBe(
      'invalid configuration:\n  - routes[1] in /ci/quality-evidence.config.json: must be a path template string such as /orders/:orderId; got 7 (a number)',
    );
  });

  test('a baseline report', () => {
    expect(
      (thrownBy(() => parseReport(JSON.stringify({ schemaVersion: 1, endpoints: [{ label: 7 }] }), 'base.json')) as Error).message,
    ).toMatch(
      /^the baseline report "base\.json" is not a quality-summary\.json written by quality-evidence \(at [a-zA-Z]+(\[\d+\])?(\.[a-zA-Z]+)*: /,
    );
  });

  test('a record', () => {
    const error = thrownBy(() =>
      validateRecordList(
        [{ endpoint: 'GET /a', statusCode: 200, responseTimeMs: 5, timingMs: { wait: -1 } }],
        executionRecordSchema,
        'executions',
        'record',
      ),
    );
    expect(error).toBeInstanceOf(RecordValidationError);
    expect((error as Error).message).toContain('  - executions[0].timingMs.wait: ');
  });
});

test('a configuration error lists 20 problems and counts the rest; its issues hold them all', () => {
  const endpoints = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`orders${index}`, {}]));
  const error = thrownBy(() => parseBudgets(JSON.stringify({ endpoints }), 'b.json'));
  expect(error).toBeInstanceOf(ConfigurationError);
  const lines = (error as Error).message.split('\n');
  expect(lines).toHaveLength(1 + 20 + 1);
  expect(lines[1]).toBe('  - endpoints.orders0 in "b.json": must be an endpoint label of the form "<METHOD> <path>"');
  expect(lines[21]).toBe('  ... and 5 more');
  expect((error as ConfigurationError).issues).toHaveLength(25);
});
