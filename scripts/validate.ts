import { DEFAULT_OUTPUT_PATH, loadQualityToolConfig, type EnvironmentRecord } from '../src/config/loadQualityToolConfig.js';
import { ConfigurationError, RecordValidationError } from '../src/errors.js';
import { validateExecutionRecords } from '../src/readers/jsonReader.js';
import { normaliseEndpoint } from '../src/records/normaliseExecutionRecords.js';
import { runCli } from '../src/cli/runCli.js';

// npm run validate: self-checks of the boundaries the SPEC names, run against
// the real loader and validator. One line per check; exit 1 if any fails.

interface SelfCheck {
  readonly name: string;
  /** Returns nothing when the check holds, or what went wrong. */
  readonly run: () => string | undefined;
}

const base: EnvironmentRecord = { QE_ENVIRONMENT: 'validate', QE_INPUT_PATH: 'fixtures/quality-executions.json' };

function configFailsOn(env: EnvironmentRecord, variable: string): string | undefined {
  try {
    loadQualityToolConfig(env);
    return 'was accepted';
  } catch (error) {
    if (!(error instanceof ConfigurationError)) return `threw ${String(error)}`;
    return error.issues.some((issue) => issue.variable === variable) ? undefined : 'failed, but not on that variable';
  }
}

function statusCodeCheck(statusCode: unknown, valid: boolean): SelfCheck {
  return {
    name: `statusCode ${JSON.stringify(statusCode)} is ${valid ? 'accepted' : 'rejected'}`,
    run: () => {
      const document = { executions: [{ statusCode, endpoint: 'GET /orders', responseTimeMs: 10 }] };
      try {
        validateExecutionRecords(document);
        return valid ? undefined : 'was accepted';
      } catch (error) {
        if (!(error instanceof RecordValidationError)) return `threw ${String(error)}`;
        if (valid) return 'was rejected';
        return error.issues[0]?.path.join('.') === 'statusCode' ? undefined : 'rejected for another reason';
      }
    },
  };
}

function normalisationCheck(label: string, canonical: string): SelfCheck {
  return {
    name: `endpoint ${JSON.stringify(label)} normalises to ${JSON.stringify(canonical)}`,
    run: () => {
      const found = normaliseEndpoint(label);
      return found === canonical ? undefined : `got ${JSON.stringify(found)}`;
    },
  };
}

const checks: readonly SelfCheck[] = [
  {
    name: 'values are trimmed (" staging " becomes "staging")',
    run: () => {
      const config = loadQualityToolConfig({ ...base, QE_ENVIRONMENT: ' staging ', QE_SLOW_RESPONSE_THRESHOLD_MS: ' 800 ' });
      return config.environment === 'staging' && config.slowResponseThresholdMs === 800 ? undefined : 'not trimmed';
    },
  },
  {
    name: 'a whitespace-only QE_ENVIRONMENT counts as missing',
    run: () => configFailsOn({ ...base, QE_ENVIRONMENT: ' \t ' }, 'QE_ENVIRONMENT'),
  },
  {
    name: 'a non-numeric threshold ("slow") is a configuration error',
    run: () => configFailsOn({ ...base, QE_SLOW_RESPONSE_THRESHOLD_MS: 'slow' }, 'QE_SLOW_RESPONSE_THRESHOLD_MS'),
  },
  {
    name: `QE_OUTPUT_PATH defaults to ${DEFAULT_OUTPUT_PATH} when absent`,
    run: () => (loadQualityToolConfig(base).outputPath === DEFAULT_OUTPUT_PATH ? undefined : 'no default'),
  },
  {
    name: `QE_OUTPUT_PATH defaults to ${DEFAULT_OUTPUT_PATH} when whitespace only`,
    run: () => (loadQualityToolConfig({ ...base, QE_OUTPUT_PATH: '   ' }).outputPath === DEFAULT_OUTPUT_PATH ? undefined : 'no default'),
  },
  normalisationCheck('  get   /orders ', 'GET /orders'),
  normalisationCheck('GET\t/orders', 'GET /orders'),
  statusCodeCheck(99, false),
  statusCodeCheck(100, true),
  statusCodeCheck(599, true),
  statusCodeCheck(600, false),
  statusCodeCheck(200.5, false),
  statusCodeCheck('200', false),
];

// A check that throws has failed; it does not stop the others.
function runCheck(check: SelfCheck): string | undefined {
  try {
    return check.run();
  } catch (error) {
    return `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
}

await runCli('quality-evidence validate', () => {
  let failures = 0;
  for (const check of checks) {
    const problem = runCheck(check);
    if (problem !== undefined) failures++;
    process.stdout.write(problem === undefined ? `ok   ${check.name}\n` : `FAIL ${check.name}: ${problem}\n`);
  }
  process.stdout.write(`${checks.length - failures} passed, ${failures} failed\n`);
  if (failures > 0) process.exitCode = 1;
});
