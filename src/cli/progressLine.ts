import type { ProgressMode } from '../config/settings.js';
import { presentValue, type EnvironmentRecord } from '../config/settingsSources.js';
import { systemClock } from '../helpers/clock.js';
import type { CommandContext } from './summariseCommand.js';

/**
 * The progress of long work on stderr, where a person watches (the `progress`
 * setting, docs/command.md#progress): nothing for work done within a second;
 * after that, on a terminal outside CI, one line redrawn in place (`\r`, then
 * erase to the end of the line) and erased at the end; asked `always` where
 * that line would not do (a CI log, a file), a plain line every few seconds,
 * so that a log stays readable. Time comes from the injected `now`, so specs
 * are exact.
 */

/** Work that took at most this long shows no progress at all. */
export const PROGRESS_DELAY_MS = 1000;

/** The plain lines of a log come at most this often. */
export const PROGRESS_LOG_INTERVAL_MS = 5000;

/** The default redraw interval of a terminal's line. */
const TERMINAL_INTERVAL_MS = 250;

const MEBIBYTE = 1024 * 1024;

/**
 * The variables CI systems set in their jobs: `CI` (GitHub Actions, GitLab CI, CircleCI, Travis, Buildkite, Bitbucket;
 * `CI=false` and `CI=0` say it is not), and those of systems that do not set it.
 */
const CI_VARIABLES = ['CI', 'GITHUB_ACTIONS', 'GITLAB_CI', 'BUILDKITE', 'CIRCLECI', 'TF_BUILD', 'JENKINS_URL', 'TEAMCITY_VERSION'];

/** Whether the process runs in a CI job, by the variables CI systems set. */
export function isContinuousIntegration(env: EnvironmentRecord): boolean {
  return CI_VARIABLES.some((name) => {
    const value = presentValue(env[name]);
    return value !== undefined && !/^(?:false|0)$/i.test(value);
  });
}

/** How progress is drawn: one line redrawn in place, plain lines now and then, or not at all. */
export type ProgressStyle = 'line' | 'lines' | 'none';

/** How the setting, the stream and the environment decide the style: `auto` draws only on a terminal outside CI. */
export function progressStyleOf(mode: ProgressMode, stderrIsTerminal: boolean, env: EnvironmentRecord): ProgressStyle {
  if (mode === 'never') return 'none';
  if (stderrIsTerminal && !isContinuousIntegration(env)) return 'line';
  return mode === 'always' ? 'lines' : 'none';
}

/** What a progress display needs. */
export interface ProgressOptions {
  /** The `progress` setting. */
  readonly mode: ProgressMode;
  /** Where the progress goes; its `isTTY` says whether it is a terminal. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** The environment, read only for whether this is CI. */
  readonly env: EnvironmentRecord;
  /** The time in milliseconds; only differences matter. */
  readonly now: () => number;
  /** Prefixes a plain line of a log: `quality-evidence`. */
  readonly programName: string;
  /** How often a terminal's line is redrawn, in milliseconds; default 250. */
  readonly intervalMs?: number | undefined;
  /** What has been done, in words: `1,234 records`, `3 of 40 reports`. */
  readonly describe: (done: number) => string;
}

/** A progress display: told how far the work is, as often as it likes, and finished once, whatever the outcome. */
export interface Progress {
  /** The work done so far (what `describe` counts) and the bytes read. Cheap when nothing is drawn. */
  readonly update: (done: number, bytes: number) => void;
  /** Erases the terminal's line, when one was drawn. */
  readonly finish: () => void;
}

/** A progress display, or undefined where none is shown (so that the work need not even count). */
export function createProgress({ mode, stderr, env, now, programName, intervalMs, describe }: ProgressOptions): Progress | undefined {
  const style = progressStyleOf(mode, stderr.isTTY === true, env);
  if (style === 'none') return undefined;
  const interval = style === 'line' ? (intervalMs ?? TERMINAL_INTERVAL_MS) : PROGRESS_LOG_INTERVAL_MS;
  const started = now();
  let nextAt = started + PROGRESS_DELAY_MS;
  let drawn = false;
  return {
    update: (done, bytes) => {
      const at = now();
      // Strictly more than the delay: work of exactly a second shows nothing.
      if (at <= nextAt) return;
      nextAt = at + interval;
      const text = `${describe(done)}, ${formatBytesAndRate(bytes, at - started)}`;
      if (style === 'line') {
        stderr.write(`\r${text}\u001b[K`);
        drawn = true;
      } else stderr.write(`${programName}: ${text}\n`);
    },
    finish: () => {
      if (drawn) stderr.write('\r\u001b[K');
      drawn = false;
    },
  };
}

/** `12.3 MB read (4.5 MB/s)`: megabytes of 2^20 bytes, one decimal. */
function formatBytesAndRate(bytes: number, elapsedMs: number): string {
  const megabytes = bytes / MEBIBYTE;
  return `${megabytes.toFixed(1)} MB read (${(megabytes / (elapsedMs / 1000)).toFixed(1)} MB/s)`;
}

/** The progress of a subcommand's long work on its stderr, as the `progress` setting asks, on the command's clock. */
export function createCommandProgress(
  context: CommandContext,
  mode: ProgressMode,
  describe: (done: number) => string,
): Progress | undefined {
  const clock = context.clock ?? systemClock;
  return createProgress({
    mode,
    stderr: context.stderr,
    env: context.env,
    now: () => clock.now(),
    programName: context.programName,
    intervalMs: context.progressIntervalMs,
    describe,
  });
}
