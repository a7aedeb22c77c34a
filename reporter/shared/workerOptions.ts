import { isPlainObject } from '../../src/records/validateRecordList.js';

/**
 * How Playwright's test workers learn the reporter's options: the reporter,
 * made in the runner process before any worker starts, puts them in a
 * variable that every worker inherits. A worker cannot find them in the
 * config by the reporter's name: a project may give the reporter through a
 * file of its own (`reporter: [['./my-reporter.ts', { ... }]]`, the file
 * re-exporting `quality-evidence/reporter`), whose name says nothing, and
 * a name that holds `quality-evidence` may be another reporter's (in a
 * project whose folder is named after the package). The options are tied to
 * the config's folder, so that a run started inside a test (this package's
 * own specs do so) never takes an outer run's options.
 */

/** The variable the reporter hands its options to the test workers in. */
export const REPORTER_OPTIONS_VARIABLE = 'QUALITY_EVIDENCE_REPORTER_OPTIONS';

/** The variable's value for the options Playwright gave the reporter (its own `configDir` among them). */
export function sharedReporterOptions(options: Readonly<Record<string, unknown>>, configDir: string): string {
  return JSON.stringify({ configDir, options });
}

/** The reporter's options as a worker of the config in `configDir` reads them from its environment; undefined when none were handed over for it. */
export function reporterOptionsFor(
  configDir: string,
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, unknown>> | undefined {
  const text = env[REPORTER_OPTIONS_VARIABLE];
  if (text === undefined) return undefined;
  let shared: unknown;
  try {
    shared = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(shared) || shared['configDir'] !== configDir) return undefined;
  const { options } = shared;
  return isPlainObject(options) ? options : undefined;
}
