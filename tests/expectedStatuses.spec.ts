import { expect, test } from './support/test.js';
import { Readable } from 'node:stream';
import {
  ConfigurationError,
  RecordValidationError,
  loadQualityToolConfig,
  runQualityWorkflow,
  type QualityToolConfig,
} from '../src/index.js';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import { runCommand } from '../src/cli/runCommand.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { optionSettings } from '../src/config/settingsSources.js';
import { parseStatusList, statusSet } from '../src/records/statusList.js';
import { RecordIntake } from '../src/run/recordIntake.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { rejectionOf, thrownBy } from './support/failures.js';

// Expected statuses: negative tests are not failures.

test.describe('status lists', () => {
  test('codes and inclusive ranges, comma-separated, with spaces allowed', () => {
    expect(parseStatusList(' 100-399 , 404,410- 412')).toMatchObject({ set: { text: '100-399,404,410-412' } });
  });

  test('an array of codes and range strings', () => {
    expect(parseStatusList([200, '400-404', 404])).toMatchObject({ set: { text: '200,400-404' } });
  });

  for (const [input, problem] of [
    ['abc', 'is neither a status code nor a range such as 200-299'],
    ['500-400', 'is a range that ends before it starts'],
    ['600', 'is outside the status codes 100 to 599'],
    ['99', 'is outside the status codes 100 to 599'],
    ['200,,404', 'item 2 of 3 is neither a status code nor a range such as 200-299'],
    ['', 'is neither a status code nor a range such as 200-299'],
    [[200.5], 'is outside the status codes 100 to 599'],
    [[], 'must name at least one status code'],
    [{ codes: [200] }, 'must be a list of status codes and ranges, such as "200-299,404"'],
  ] as const) {
    test(`${JSON.stringify(input)} is refused: ${problem}`, () => {
      expect(parseStatusList(input)).toStrictEqual({ problem });
    });
  }
});

test.describe('the settings', () => {
  const env = { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' };

  test('QE_EXPECTED_STATUSES gives the run-wide list', () => {
    expect(loadQualityToolConfig({ ...env, QE_EXPECTED_STATUSES: '100-399,404' }).expectedStatuses).toBe('100-399,404');
  });

  test('a malformed QE_EXPECTED_STATUSES is a configuration error naming the variable, never its value', () => {
    const error = thrownBy(() => loadQualityToolConfig({ ...env, QE_EXPECTED_STATUSES: 'secret-500-400' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(
      'invalid configuration:\n  - QE_EXPECTED_STATUSES: must be a list of status codes and ranges, ' +
        'such as "200-299,404" (or an array such as [200, "400-404"])',
    );
  });

  test('a range that ends before it starts names the variable', () => {
    expect((thrownBy(() => loadQualityToolConfig({ ...env, QE_EXPECTED_STATUSES: '500-400' })) as Error).message).toBe(
      'invalid configuration:\n  - QE_EXPECTED_STATUSES: is a range that ends before it starts',
    );
  });

  test('expectedStatusesByEndpoint in the settings file names the bad endpoint key and the file', () => {
    const settingsFile = {
      path: '/ci/quality-evidence.config.json',
      text: JSON.stringify({ expectedStatusesByEndpoint: { 'DELETE /booking/:id': '200-299,700' } }),
    };
    expect((thrownBy(() => loadQualityToolConfig(env, { settingsFile })) as Error).message).toBe(
      'invalid configuration:\n  - expectedStatusesByEndpoint["DELETE /booking/:id"] in ' +
        '/ci/quality-evidence.config.json: item 2 of 2 is outside the status codes 100 to 599; got "200-299,700" (a string)',
    );
  });
});

test.describe('expectedStatusesByEndpoint keys that are not one endpoint label each are refused, as budget keys are', () => {
  const env = { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' };
  const refusal = (text: string): string => {
    const settingsFile = { path: '/ci/quality-evidence.config.json', text: `{ "expectedStatusesByEndpoint": ${text} }` };
    return (thrownBy(() => loadQualityToolConfig(env, { settingsFile })) as Error).message;
  };
  const notALabel = (place: string) => `${place}: must be an endpoint label of the form "<METHOD> <path>"; got "404" (a string)`;

  for (const key of ['__proto__', 'constructor', 'toString']) {
    // zod passes over a "__proto__" key without a word: its statuses would have been dropped.
    test(`"${key}" in the settings file`, () => {
      expect(refusal(`{ "GET /a": "200-299", "${key}": "404" }`)).toBe(
        `invalid configuration:\n  - ${notALabel(`expectedStatusesByEndpoint.${key} in /ci/quality-evidence.config.json`)}`,
      );
    });
  }

  test('two keys that are one endpoint once normalised, as records\u2019 labels are', () => {
    expect(refusal('{ "GET /a": "404", "get  /a": "200" }')).toBe(
      'invalid configuration:\n  - expectedStatusesByEndpoint["get  /a"] in /ci/quality-evidence.config.json: ' +
        'is the endpoint "GET /a", as "GET /a" is: give each endpoint its expected statuses once; got "200" (a string)',
    );
  });

  test('the reporter option (an object) is refused the same way', () => {
    const source = optionSettings(
      { expectedStatusesByEndpoint: JSON.parse('{ "__proto__": "404" }') as unknown },
      { owner: 'quality-evidence/reporter', base: '.' },
    );
    expect((thrownBy(() => resolveSettings([source], { defaults: { environment: 'local' } })) as Error).message).toBe(
      'invalid configuration:\n  - option expectedStatusesByEndpoint.__proto__: must be an endpoint label of the form "<METHOD> <path>"; got "404" (a string)',
    );
  });

  test('the command exits 78, a bad setting, before anything is written', async () => {
    const fileSystem = new MemoryFileSystem({
      'in.json': JSON.stringify([{ statusCode: 404, endpoint: 'GET /a', responseTimeMs: 1 }]),
      'quality-evidence.config.json': '{ "expectedStatusesByEndpoint": { "__proto__": "404" } }',
    });
    let stdout = '';
    const context = {
      args: ['in.json', '-o', 'out/q.json'],
      env: {},
      fileSystem,
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      programName: 'quality-evidence',
    };
    const error = await rejectionOf(runCommand(context));

    const message = `invalid configuration:\n  - ${notALabel('expectedStatusesByEndpoint.__proto__ in quality-evidence.config.json')}`;
    expect([exitCodeFor(error), (error as Error).message, stdout]).toStrictEqual([78, message, '']);
    expect(await fileSystem.stat('out/q.json')).toBeUndefined();
  });
});

test.describe('in a run', () => {
  const config: QualityToolConfig = { environment: 'ci', slowResponseThresholdMs: 750, inputPath: 'in.json', outputPath: 'out.json' };
  const input = (records: readonly object[]): MemoryFileSystem => new MemoryFileSystem({ 'in.json': JSON.stringify(records) });
  const calls = [
    { statusCode: 200, endpoint: 'GET /booking/1', responseTimeMs: 1 },
    { statusCode: 403, endpoint: 'DELETE /booking/1', responseTimeMs: 1 },
    { statusCode: 404, endpoint: 'GET /booking/2', responseTimeMs: 1 },
  ];

  test('by default 403 and 404 are failures, as before', async () => {
    const { report } = await runQualityWorkflow(config, { fileSystem: input(calls) });
    expect([report.failedExecutionCount, report.expectedErrorCount]).toStrictEqual([2, 0]);
  });

  test('declared expected, they are no failures and still show in statusCodes and expectedErrorCount', async () => {
    const { report } = await runQualityWorkflow({ ...config, expectedStatuses: '100-399,403,404' }, { fileSystem: input(calls) });
    expect([report.failedExecutionCount, report.expectedErrorCount, report.statusCodes, report.failureCountByEndpoint]).toStrictEqual([
      0,
      2,
      { '200': 1, '403': 1, '404': 1 },
      {},
    ]);
  });

  test('a per-endpoint list applies to the label after grouping', async () => {
    const { report } = await runQualityWorkflow(
      { ...config, endpointGrouping: 'auto', expectedStatusesByEndpoint: { 'DELETE /booking/:id': '200-299,403' } },
      { fileSystem: input(calls) },
    );
    expect(report.failureCountByEndpoint).toStrictEqual({ 'GET /booking/:id': 1 });
  });

  test("a record's own expectedStatuses makes its status expected", async () => {
    const { report } = await runQualityWorkflow(config, {
      fileSystem: input([
        { ...calls[2], expectedStatuses: '404' },
        { ...calls[2], expectedStatuses: [200, '400-403'] },
      ]),
    });
    expect([report.failedExecutionCount, report.expectedErrorCount]).toStrictEqual([1, 1]);
  });

  test("a record's malformed expectedStatuses is a validation error naming the record", async () => {
    const error = await rejectionOf(runQualityWorkflow(config, { fileSystem: input([{ ...calls[0], expectedStatuses: '2xx' }]) }));
    expect(error).toBeInstanceOf(RecordValidationError);
    expect((error as Error).message).toContain(
      '[0].expectedStatuses: must be a list of the status codes this call expects, ' +
        'such as "404" or "200-299,403" (or an array such as [404, "200-299"]), codes from 100 to 599',
    );
  });
});

test.describe("a test's expected statuses (the reporter's annotation)", () => {
  test('add to the rules: a 404 becomes expected, a 201 stays fine and a 500 still fails', () => {
    const intake = new RecordIntake({ slowResponseThresholdMs: 750 });
    const alsoExpected = statusSet('404');
    for (const statusCode of [201, 404, 500])
      intake.take({ statusCode, endpoint: 'GET /a', responseTimeMs: 1 }, () => ({ kind: 'test', title: 't', attempt: 1 }), {
        alsoExpected,
      });
    const summary = intake.accumulator.result();
    expect([summary.failedExecutionCount, summary.expectedErrorCount]).toStrictEqual([1, 1]);
  });

  test("add to an endpoint's own list, and give way to a record's own", () => {
    const intake = new RecordIntake({ slowResponseThresholdMs: 750, expectedStatusesByEndpoint: { 'DELETE /a': '204' } });
    const origin = { alsoExpected: statusSet('403') };
    const at = () => ({ kind: 'test', title: 't', attempt: 1 }) as const;
    intake.take({ statusCode: 204, endpoint: 'DELETE /a', responseTimeMs: 1 }, at, origin);
    intake.take({ statusCode: 403, endpoint: 'DELETE /a', responseTimeMs: 1 }, at, origin);
    intake.take({ statusCode: 403, endpoint: 'DELETE /a', responseTimeMs: 1, expectedStatuses: '204' }, at, origin);
    expect(intake.accumulator.result().failedExecutionCount).toBe(1);
  });
});
