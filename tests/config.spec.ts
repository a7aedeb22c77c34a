import { expect, test } from './support/test.js';
import {
  ConfigurationError,
  QualityEvidenceError,
  loadQualityToolConfig,
  type ConfigurationIssue,
  type EnvironmentRecord,
} from '../src/index.js';
import { SETTING_DEFAULTS } from '../src/config/settings.js';

// The smallest environment that loads: both required variables, nothing else.
const required = { QE_ENVIRONMENT: 'staging', QE_INPUT_PATH: 'fixtures/quality-executions.json' } as const;

const environmentRequired: ConfigurationIssue = {
  variable: 'QE_ENVIRONMENT',
  message: 'is required (the name of the target environment)',
};
const inputPathRequired: ConfigurationIssue = {
  variable: 'QE_INPUT_PATH',
  message: 'is required (the path of the input file of execution records)',
};
const thresholdNotDigits: ConfigurationIssue = {
  variable: 'QE_SLOW_RESPONSE_THRESHOLD_MS',
  message: 'must be a whole non-negative number of milliseconds written in digits',
};

function configurationErrorFrom(env: EnvironmentRecord): ConfigurationError {
  try {
    loadQualityToolConfig(env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected loadQualityToolConfig to throw a ConfigurationError');
}

const missingValues = [
  ['absent', undefined],
  ['empty', ''],
  ['whitespace only', ' \t\n '],
] as const;

for (const [variable, issue] of [
  ['QE_ENVIRONMENT', environmentRequired],
  ['QE_INPUT_PATH', inputPathRequired],
] as const) {
  for (const [label, value] of missingValues) {
    test(`${variable} that is ${label} is reported as required`, () => {
      const error = configurationErrorFrom({ ...required, [variable]: value });
      expect(error.issues).toEqual([issue]);
      expect(error.message).toBe(`invalid configuration:\n  - ${issue.variable}: ${issue.message}`);
    });
  }
}

// What a loaded configuration holds besides what was given: each setting's default from the table (the report's path is outputPath there).
const { outputFile: _outputFile, quiet: _quiet, ...configDefaults } = SETTING_DEFAULTS;

test('values are trimmed', () => {
  const config = loadQualityToolConfig({
    QE_ENVIRONMENT: '  staging\t',
    QE_INPUT_PATH: ' data/in.json  ',
    QE_OUTPUT_PATH: '\tout/summary.json \n',
    QE_SLOW_RESPONSE_THRESHOLD_MS: ' 800 ',
  });
  expect(config).toStrictEqual({
    ...configDefaults,
    environment: 'staging',
    slowResponseThresholdMs: 800,
    inputPath: 'data/in.json',
    outputPath: 'out/summary.json',
  });
});

test('QE_OUTPUT_PATH defaults to .build/quality-summary.json when absent', () => {
  expect(loadQualityToolConfig(required).outputPath).toBe('.build/quality-summary.json');
});

test('QE_OUTPUT_PATH defaults to .build/quality-summary.json when whitespace only', () => {
  expect(loadQualityToolConfig({ ...required, QE_OUTPUT_PATH: '   ' }).outputPath).toBe('.build/quality-summary.json');
});

test('QE_OUTPUT_PATH defaults to .build/quality-summary.json when empty', () => {
  expect(loadQualityToolConfig({ ...required, QE_OUTPUT_PATH: '' }).outputPath).toBe('.build/quality-summary.json');
});

test('QE_OUTPUT_PATH is kept, trimmed, when given', () => {
  expect(loadQualityToolConfig({ ...required, QE_OUTPUT_PATH: ' reports/q.json ' }).outputPath).toBe('reports/q.json');
});

for (const folder of ['reports/', 'reports\\', ' out/ ']) {
  test(`a QE_OUTPUT_PATH that ends with a path separator (${JSON.stringify(folder)}) names a folder and is refused`, () => {
    expect(configurationErrorFrom({ ...required, QE_OUTPUT_PATH: folder }).issues).toEqual([
      { variable: 'QE_OUTPUT_PATH', message: 'must name a file, not a folder (it ends with a path separator)' },
    ]);
  });
}

test('the slow-response threshold defaults to 750 when absent', () => {
  expect(loadQualityToolConfig(required).slowResponseThresholdMs).toBe(750);
});

test('the slow-response threshold defaults to 750 when whitespace only', () => {
  expect(loadQualityToolConfig({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: '  ' }).slowResponseThresholdMs).toBe(750);
});

test('the slow-response threshold " 800 " is 800', () => {
  expect(loadQualityToolConfig({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: ' 800 ' }).slowResponseThresholdMs).toBe(800);
});

test('the slow-response threshold "0" is 0', () => {
  expect(loadQualityToolConfig({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: '0' }).slowResponseThresholdMs).toBe(0);
});

for (const value of ['slow', '12abc', 'NaN', '-5', 'Infinity', '1e3', '7.5', '+5', '0x10', '1 000']) {
  test(`the slow-response threshold ${JSON.stringify(value)} is refused`, () => {
    const error = configurationErrorFrom({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: value });
    expect(error.issues).toEqual([thresholdNotDigits]);
  });
}

test('a slow-response threshold beyond the safe integers is refused as too large', () => {
  const error = configurationErrorFrom({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: '99999999999999999999' });
  expect(error.issues).toEqual([{ variable: 'QE_SLOW_RESPONSE_THRESHOLD_MS', message: 'is too large to be a number of milliseconds' }]);
});

test('every problem is reported at once, in variable order', () => {
  const error = configurationErrorFrom({ QE_INPUT_PATH: ' ', QE_SLOW_RESPONSE_THRESHOLD_MS: 'slow' });
  expect(error.issues).toEqual([environmentRequired, thresholdNotDigits, inputPathRequired]);
  expect(error.message).toBe(
    [
      'invalid configuration:',
      '  - QE_ENVIRONMENT: is required (the name of the target environment)',
      '  - QE_SLOW_RESPONSE_THRESHOLD_MS: must be a whole non-negative number of milliseconds written in digits',
      '  - QE_INPUT_PATH: is required (the path of the input file of execution records)',
    ].join('\n'),
  );
});

test('the error never contains the value of any variable', () => {
  const secret = 'qe-fake-secret-7f3a9c';
  const error = configurationErrorFrom({
    QE_ENVIRONMENT: secret,
    QE_INPUT_PATH: secret,
    QE_OUTPUT_PATH: secret,
    QE_SLOW_RESPONSE_THRESHOLD_MS: `12${secret}`,
    QE_API_TOKEN: secret,
  });
  expect(error.issues).toEqual([thresholdNotDigits]);
  expect(error.message).not.toContain(secret);
  expect(String(error.stack)).not.toContain(secret);
  expect(JSON.stringify(error.issues)).not.toContain(secret);
  expect(error.cause).toBeUndefined();
});

test('the error never contains the value of a too-large threshold', () => {
  const value = '98765432109876543210';
  const error = configurationErrorFrom({ ...required, QE_SLOW_RESPONSE_THRESHOLD_MS: value });
  expect(error.message).not.toContain(value);
});

test('unrelated variables are ignored', () => {
  const config = loadQualityToolConfig({
    ...required,
    PATH: '/usr/bin',
    HOME: '/root',
    QE_UNKNOWN: 'not a QE setting',
    qe_environment: 'lower-case is a different variable',
  });
  expect(config).toStrictEqual({
    ...configDefaults,
    environment: 'staging',
    slowResponseThresholdMs: 750,
    inputPath: 'fixtures/quality-executions.json',
    outputPath: '.build/quality-summary.json',
  });
});

test('the loader reads its argument, not process.env', () => {
  const saved = { environment: process.env.QE_ENVIRONMENT, inputPath: process.env.QE_INPUT_PATH };
  process.env.QE_ENVIRONMENT = 'from-process-env';
  process.env.QE_INPUT_PATH = 'from-process-env.json';
  try {
    const error = configurationErrorFrom({});
    expect(error.issues).toEqual([environmentRequired, inputPathRequired]);
  } finally {
    if (saved.environment === undefined) delete process.env.QE_ENVIRONMENT;
    else process.env.QE_ENVIRONMENT = saved.environment;
    if (saved.inputPath === undefined) delete process.env.QE_INPUT_PATH;
    else process.env.QE_INPUT_PATH = saved.inputPath;
  }
});

test(`the config holds the SPEC's four keys, environment, slowResponseThresholdMs, inputPath and outputPath, and every other \
setting's default from the table`, () => {
  const config = loadQualityToolConfig({ ...required, QE_OUTPUT_PATH: 'out.json', QE_SLOW_RESPONSE_THRESHOLD_MS: '5' });
  expect(Object.keys(config).sort()).toEqual(
    [...new Set(['environment', 'slowResponseThresholdMs', 'inputPath', 'outputPath', ...Object.keys(configDefaults)])].sort(),
  );
});

test('the error is a ConfigurationError, a QualityEvidenceError and an Error named ConfigurationError', () => {
  const error = configurationErrorFrom({});
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error).toBeInstanceOf(QualityEvidenceError);
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe('ConfigurationError');
});

test('QE_REPORT_FORMATS: a list out of json, markdown, html, in a fixed order; anything else is an error that does not echo the value', () => {
  const base = { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' };
  expect(loadQualityToolConfig({ ...base, QE_REPORT_FORMATS: ' html , json ' }).formats).toStrictEqual(['json', 'html']);
  expect(loadQualityToolConfig(base).formats, 'the default, from the settings table').toStrictEqual(['json', 'markdown', 'html']);
  const error = configurationErrorFrom({ ...base, QE_REPORT_FORMATS: 'json,pdf-secret' });
  expect(error.message).toBe(
    'invalid configuration:\n  - QE_REPORT_FORMATS[1]: must be a list out of json, markdown, html, ' +
      'such as "json,markdown" (or an array such as ["json", "html"])',
  );
});
