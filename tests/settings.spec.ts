import { expect, test } from './support/test.js';
import { join } from 'node:path';
import {
  ConfigurationError,
  InputUnreadableError,
  loadQualityToolConfig,
  readSettingsFile,
  type ConfigurationIssue,
} from '../src/index.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { environmentSettings, flagSettings, optionSettings, settingsFileSettings } from '../src/config/settingsSources.js';
import { resolveReporterSettings } from '../reporter/shared/reporterSettings.js';
import {
  EXPORT_SETTING_KEYS,
  SETTING_DEFAULTS,
  SETTING_FLAG_OPTIONS,
  SETTING_KEYS,
  SETTINGS,
  type SettingDefinition,
} from '../src/config/settings.js';
import { SUMMARISE_HELP } from '../src/cli/summariseCommand.js';
import { CHECK_HELP } from '../src/cli/checkCommand.js';
import { optionHelpLine, settingHelpLines } from '../src/cli/settingsHelp.js';
import { createTemporaryFolder } from './support/runProgram.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { rejectionOf, thrownBy } from './support/failures.js';

// The one settings model: sources give values under the user's own names,
// one resolver applies precedence (flag, option, variable, file, default).

const filePath = 'config/quality-evidence.config.json';
const options = (values: Record<string, unknown>) => optionSettings(values, { owner: 'quality-evidence/reporter', base: '/project' });
const file = (content: unknown) => settingsFileSettings(filePath, typeof content === 'string' ? content : JSON.stringify(content));
// A program's own defaults over the table's (750 ms, not quiet).
const everySetting = { defaults: { environment: 'local', outputFile: 'default.json' } } as const;

function issuesOf(action: () => unknown): readonly ConfigurationIssue[] {
  const error = thrownBy(action);
  if (!(error instanceof ConfigurationError)) throw error;
  return error.issues;
}

// What a loaded configuration holds besides what was given: each setting's default from the table (the report's path is outputPath there).
const { outputFile: _outputFile, quiet: _quiet, ...configDefaults } = SETTING_DEFAULTS;

test.describe('the settings file', () => {
  test('gives each key: environment, threshold, quiet, and an output path relative to its own folder', () => {
    const settings = resolveSettings(
      [file({ environment: 'staging', slowResponseThresholdMs: 300, outputFile: 'out/q.json', quiet: true })],
      everySetting,
    );
    expect(settings).toEqual({
      ...SETTING_DEFAULTS,
      environment: 'staging',
      slowResponseThresholdMs: 300,
      outputFile: join('config', 'out/q.json'),
      quiet: true,
    });
  });

  test('an absolute output path is kept as it is', () => {
    expect(resolveSettings([file({ outputFile: '/tmp/q.json' })], everySetting).outputFile).toBe('/tmp/q.json');
  });

  test('apiCalls says which browser requests are API calls, and a page-making resource type is refused by name', () => {
    expect(
      resolveSettings([file({ apiCalls: { resourceTypes: ['fetch'], include: ['**/api/**'], exclude: ['**/api/health'] } })], everySetting)
        .apiCalls,
    ).toEqual({
      resourceTypes: ['fetch'],
      include: ['**/api/**'],
      exclude: ['**/api/health'],
    });
    expect(issuesOf(() => resolveSettings([file({ apiCalls: { resourceTypes: ['fetch', 'document'] } })], everySetting))).toEqual([
      {
        variable: `apiCalls.resourceTypes[1] in ${filePath}`,
        message:
          'must each be one of fetch, xhr, other: documents, scripts, styles, images, fonts, ' +
          'media and WebSockets are never API calls; got "document" (a string)',
      },
    ]);
    expect(issuesOf(() => resolveSettings([file({ apiCalls: { include: '**/api/**' } })], everySetting))).toEqual([
      {
        variable: `apiCalls.include in ${filePath}`,
        message: 'must be an array of URL globs, such as ["**/api/**"]; got "**/api/**" (a string)',
      },
    ]);
  });

  test('"$schema" is allowed and ignored', () => {
    expect(
      resolveSettings([file({ $schema: './node_modules/quality-evidence/schemas/settings.schema.json' })], everySetting).environment,
    ).toBe('local');
  });

  test('an unknown key is an issue naming the key and the file', () => {
    expect(issuesOf(() => resolveSettings([file({ outputfile: 'x.json' })], everySetting))).toEqual([
      {
        variable: `outputfile in ${filePath}`,
        message:
          'is not a setting of quality-evidence.config.json (known: environment, slowResponseThresholdMs, outputFile, ' +
          'quiet, progress, expectedStatuses, expectedStatusesByEndpoint, apiCalls, routes, endpointGrouping, budgets, ' +
          'baselinePath, historyPath, historyLimit, historyReadOnly, historyPartialRuns, flakinessRuns, dashboardPath, baselineFromHistory, ' +
          'significanceLevel, failureExcerptBytes, redactKeys, openapi, openapiBase, exports, serviceName, traceContext, ' +
          'traceUrlTemplate, reportUrl, otlpSpanLimit, formats)',
      },
    ]);
  });

  test('a bad value is an issue naming the key and the file, with the value shown', () => {
    expect(issuesOf(() => resolveSettings([file({ slowResponseThresholdMs: '300', quiet: 'yes' })], everySetting))).toEqual([
      {
        variable: `slowResponseThresholdMs in ${filePath}`,
        message: 'must be a whole number of milliseconds, 0 or more; got "300" (a string)',
      },
      { variable: `quiet in ${filePath}`, message: 'must be true or false; got "yes" (a string)' },
    ]);
  });

  test('text that is not JSON is an issue naming the file, the line and the column', () => {
    expect(issuesOf(() => resolveSettings([file('{\n  "quiet": true,\n}')], everySetting))).toEqual([
      { variable: filePath, message: 'is not well-formed JSON at line 3, column 1' },
    ]);
  });

  test('JSON that is not an object is an issue naming the file', () => {
    expect(issuesOf(() => resolveSettings([file([])], everySetting))).toEqual([
      { variable: filePath, message: 'must hold a JSON object of settings; found an array' },
    ]);
  });
});

test.describe('precedence', () => {
  test('a reporter option wins over a variable, which wins over the file, which wins over the default', () => {
    const sources = [
      options({ environment: 'from-option' }),
      environmentSettings({ QE_ENVIRONMENT: 'from-variable', QE_SLOW_RESPONSE_THRESHOLD_MS: '100' }),
      file({ environment: 'from-file', slowResponseThresholdMs: 200, quiet: true }),
    ];
    expect(resolveSettings(sources, everySetting)).toEqual({
      ...SETTING_DEFAULTS,
      environment: 'from-option',
      slowResponseThresholdMs: 100,
      outputFile: 'default.json',
      quiet: true,
    });
  });

  test('a bad value is reported even where a source of higher precedence gives a good one', () => {
    const sources = [environmentSettings({ QE_SLOW_RESPONSE_THRESHOLD_MS: '100' }), file({ slowResponseThresholdMs: -1 })];
    expect(issuesOf(() => resolveSettings(sources, everySetting))).toEqual([
      {
        variable: `slowResponseThresholdMs in ${filePath}`,
        message: 'must be a whole number of milliseconds, 0 or more; got -1 (a number)',
      },
    ]);
  });

  test('a variable is never shown in a message, whatever its value', () => {
    const secret = 'sk-live-do-not-print';
    const error = thrownBy(() =>
      resolveSettings([environmentSettings({ QE_QUIET: secret, QE_SLOW_RESPONSE_THRESHOLD_MS: secret })], everySetting),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(
      'invalid configuration:\n' +
        '  - QE_SLOW_RESPONSE_THRESHOLD_MS: must be a whole non-negative number of milliseconds written in digits\n' +
        '  - QE_QUIET: must be true, false, 1 or 0',
    );
  });

  for (const [text, quiet] of [
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ] as const) {
    test(`QE_QUIET=${text} is ${String(quiet)}`, () => {
      expect(resolveSettings([environmentSettings({ QE_QUIET: text })], { defaults: { environment: 'local', quiet: !quiet } }).quiet).toBe(
        quiet,
      );
    });
  }

  test('the runner takes what the variables leave out from the settings file', () => {
    const config = loadQualityToolConfig(
      { QE_INPUT_PATH: 'in.json', QE_OUTPUT_PATH: 'from-variable.json' },
      {
        settingsFile: {
          path: 'quality-evidence.config.json',
          text: '{ "environment": "staging", "slowResponseThresholdMs": 300, "outputFile": "from-file.json" }',
        },
      },
    );
    expect(config).toEqual({
      ...configDefaults,
      environment: 'staging',
      slowResponseThresholdMs: 300,
      inputPath: 'in.json',
      outputPath: 'from-variable.json',
    });
  });
});

test.describe('reading the settings file', () => {
  test('a named file that is missing is an InputUnreadableError naming it', async () => {
    const error = await rejectionOf(readSettingsFile(new MemoryFileSystem(), { namedPath: 'ci/settings.json', defaultFolder: '.' }));
    expect(error).toBeInstanceOf(InputUnreadableError);
    expect((error as Error).message).toBe('cannot read the settings file "ci/settings.json": no such file or directory (ENOENT)');
  });

  test('an absent default file is simply not used', async () => {
    expect(await readSettingsFile(new MemoryFileSystem(), { defaultFolder: 'project' })).toBeUndefined();
  });

  test('the default file is quality-evidence.config.json in the default folder', async () => {
    const fileSystem = new MemoryFileSystem({ 'project/quality-evidence.config.json': '{}' });
    expect(await readSettingsFile(fileSystem, { defaultFolder: 'project' })).toEqual({
      path: join('project', 'quality-evidence.config.json'),
      text: '{}',
    });
  });

  test('a default file that cannot be read is an error, not silently skipped', async () => {
    const fileSystem = new MemoryFileSystem({ 'project/quality-evidence.config.json': '{}' }).failOn('readFile', 'EACCES');
    expect(await rejectionOf(readSettingsFile(fileSystem, { defaultFolder: 'project' }))).toBeInstanceOf(InputUnreadableError);
  });
});

test.describe('the reporter', () => {
  test('reads quality-evidence.config.json beside the Playwright config; an option and a variable win over it', async () => {
    const folder = await createTemporaryFolder({
      'quality-evidence.config.json':
        '{ "environment": "from-file", "outputFile": "reports/q.json", "slowResponseThresholdMs": 5, "quiet": true }',
    });
    const settings = resolveReporterSettings(
      { configDir: folder, environment: 'from-option' },
      { QE_SLOW_RESPONSE_THRESHOLD_MS: '7' },
      '/elsewhere',
    );
    expect(settings).toEqual({
      ...SETTING_DEFAULTS,
      environment: 'from-option',
      slowResponseThresholdMs: 7,
      outputFile: join(folder, 'reports/q.json'),
      quiet: true,
      ignoredOptions: [],
      // The file read, which no report file may replace.
      settingsFile: { path: join(folder, 'quality-evidence.config.json'), what: 'settings file', evenIfMissing: true },
    });
  });

  test('QE_CONFIG_PATH names the file, relative to the working directory', async () => {
    const folder = await createTemporaryFolder({ 'ci.json': '{ "environment": "from-named-file" }' });
    const settings = resolveReporterSettings({ configDir: '/no/such/folder' }, { QE_CONFIG_PATH: 'ci.json' }, folder);
    expect(settings.environment).toBe('from-named-file');
  });

  test('a QE_CONFIG_PATH file that is missing stops the reporter with InputUnreadableError', async () => {
    const folder = await createTemporaryFolder();
    const error = thrownBy(() => resolveReporterSettings({ configDir: folder }, { QE_CONFIG_PATH: 'missing.json' }, folder));
    expect(error).toBeInstanceOf(InputUnreadableError);
    expect((error as Error).message).toBe(
      `cannot read the settings file ${JSON.stringify(join(folder, 'missing.json'))}: no such file or directory (ENOENT)`,
    );
  });

  test('with no option, variable or file: environment local, 750 ms, .build/quality-summary.json beside the config, not quiet', async () => {
    const folder = await createTemporaryFolder();
    expect(resolveReporterSettings({ configDir: folder, _mode: 'test', onlyFailures: false }, {}, '/elsewhere')).toEqual({
      ...SETTING_DEFAULTS,
      environment: 'local',
      slowResponseThresholdMs: 750,
      outputFile: join(folder, '.build/quality-summary.json'),
      quiet: false,
      ignoredOptions: [],
      // Looked for and not there: a report written there would be the next run's settings.
      settingsFile: { path: join(folder, 'quality-evidence.config.json'), what: 'settings file', evenIfMissing: true },
    });
  });
});

test.describe('the settings table', () => {
  // A setting is an entry in the table; its flag, option, file key and type follow from it. Its help line is documentation, held here.
  test("every setting with a flag is in the command's help, its line made from its row: flag, argument, text, variable, default", () => {
    for (const key of SETTING_KEYS) {
      const { flag, variable }: SettingDefinition = SETTINGS[key];
      if (flag === undefined) continue;
      const lines = settingHelpLines([key]);
      expect(SUMMARISE_HELP, `--${flag.name}`).toContain(lines);
      const text = lines.replaceAll(/\n {39}/g, ' ');
      const name = `${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}${flag.argument === undefined ? '' : ` ${flag.argument}`}`;
      expect(text.startsWith(`  ${name} `), `--${flag.name}`).toBe(true);
      expect(text, `--${flag.name}`).toContain(`${flag.help} (${variable ?? ''}`);
    }
  });

  test('check takes, and its help lists, exactly the settings the exports read', () => {
    expect(EXPORT_SETTING_KEYS).toEqual(['exports', 'serviceName', 'traceContext', 'otlpSpanLimit']);
    for (const key of EXPORT_SETTING_KEYS) expect(CHECK_HELP).toContain(settingHelpLines([key]));
  });

  test('a help line past 150 columns continues under its text, at column 39', () => {
    const text = `${'word '.repeat(30)}end`;
    const lines = optionHelpLine('--long <x>', text).split('\n');
    expect(lines.map((line) => line.length)).toEqual([148, 82]);
    expect(lines[0]!.slice(0, 39)).toBe(`  --long <x>${' '.repeat(27)}`);
    expect(lines[1]!.slice(0, 39)).toBe(' '.repeat(39));
    expect(lines.map((line) => line.slice(39)).join(' ')).toBe(text);
    expect(optionHelpLine('--a-flag-name-longer-than-the-column <x>', 'text')).toBe(
      `  --a-flag-name-longer-than-the-column <x>\n${' '.repeat(39)}text`,
    );
  });

  test('the command takes a flag for every setting that has one', () => {
    expect(Object.keys(SETTING_FLAG_OPTIONS)).toEqual([
      'environment',
      'slow-response-threshold-ms',
      'output',
      'quiet',
      'progress',
      'expected-statuses',
      'route',
      'endpoint-grouping',
      'budgets',
      'baseline',
      'history',
      'history-limit',
      'history-read-only',
      'flakiness-runs',
      'dashboard',
      'baseline-from-history',
      'significance-level',
      'failure-excerpt-bytes',
      'openapi',
      'openapi-base',
      'export',
      'service-name',
      'trace-context',
      'trace-url-template',
      'report-url',
      'otlp-span-limit',
      'formats',
    ]);
  });
});

test.describe('flakinessRuns', () => {
  test('is 30 runs unless a source says, and each source gives it: variable, flag, reporter option, settings file', () => {
    expect(resolveSettings([], everySetting).flakinessRuns).toBe(30);
    expect(resolveSettings([environmentSettings({ QE_FLAKINESS_RUNS: '12' })], everySetting).flakinessRuns).toBe(12);
    expect(resolveSettings([flagSettings({ 'flakiness-runs': '1000' })], everySetting).flakinessRuns).toBe(1000);
    expect(resolveSettings([options({ flakinessRuns: 1 })], everySetting).flakinessRuns).toBe(1);
    expect(resolveSettings([file({ flakinessRuns: 50 })], everySetting).flakinessRuns).toBe(50);
  });

  test('a value that is not a whole number from 1 to 1,000 is an issue naming the variable, the flag or the key, never the variable’s value', () => {
    const rule = 'must be a whole number of runs from 1 to 1000';
    const secret = 'sk-live-do-not-print';
    for (const value of ['0', '1001', '2.5', secret])
      expect(issuesOf(() => resolveSettings([environmentSettings({ QE_FLAKINESS_RUNS: value })], everySetting))).toEqual([
        { variable: 'QE_FLAKINESS_RUNS', message: rule },
      ]);
    expect(issuesOf(() => resolveSettings([flagSettings({ 'flakiness-runs': '0' })], everySetting))).toEqual([
      { variable: '--flakiness-runs', message: rule },
    ]);
    expect(issuesOf(() => resolveSettings([file({ flakinessRuns: 1001 })], everySetting))).toEqual([
      { variable: `flakinessRuns in ${filePath}`, message: `${rule}; got 1001 (a number)` },
    ]);
  });
});
