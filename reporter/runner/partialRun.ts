/**
 * Whether a Playwright run ran only part of its suite, read from its command
 * line as Playwright parsed it (commander): a `--grep`, a file or line
 * filter, `--only-changed`, `--last-failed`, a test list, or a shard. Such a
 * run calls only some endpoints: appended to the history, it would make the
 * range of every other endpoint thinner (see docs/history.md). A `grep` in
 * the Playwright config is not one: every run of that config has it, so the
 * history is of that suite. `--project` is not either: a project is a suite
 * of its own.
 */

/** Options of `playwright test` (1.45 to 1.65) that take a value: the next argument is theirs. */
const VALUE_OPTIONS = new Set([
  '--add-reporter',
  '--browser',
  '-c',
  '--config',
  '--global-timeout',
  '-g',
  '--grep',
  '-G',
  '--grep-invert',
  '--last-failed-file',
  '--max-failures',
  '--output',
  '--repeat-each',
  '--reporter',
  '--retries',
  '--run-agents',
  '--shard',
  '--test-list',
  '--test-list-invert',
  '--timeout',
  '--trace',
  '--tsconfig',
  '--ui-host',
  '--ui-port',
  '--update-source-method',
  '-j',
  '--workers',
]);

/** Options whose value may be left out: the next argument is theirs unless it is an option. */
const OPTIONAL_VALUE_OPTIONS = new Set(['--debug', '--only-changed', '--shuffle', '-u', '--update-snapshots']);

/** Options that take every argument after them up to the next option. */
const VARIADIC_OPTIONS = new Set(['--project']);

/** The options that run part of the suite, as the warning names them. */
const PARTIAL_OPTIONS: Readonly<Record<string, string>> = {
  '-g': '--grep',
  '--grep': '--grep',
  '-G': '--grep-invert',
  '--grep-invert': '--grep-invert',
  '--only-changed': '--only-changed',
  '--last-failed': '--last-failed',
  '--test-list': '--test-list',
  '--test-list-invert': '--test-list-invert',
};

/**
 * Why a run ran part of its suite, in words (`--grep`, `a file filter
 * (tests/orders.spec.ts)`, `shard 2/3`), each once; empty for a whole run.
 * `argv` is the runner's command line (`node …/playwright test …`); one
 * that is not `playwright test` (merge-reports, UI mode's own) runs no part.
 */
export function partsOfSuite(argv: readonly string[], shard: { readonly current: number; readonly total: number } | null): string[] {
  const reasons = new Set<string>();
  const start = argv.indexOf('test', 2);
  if (start >= 0) {
    const args = argv.slice(start + 1);
    for (let index = 0; index < args.length; index++) {
      const arg = args[index]!;
      // After `--` the arguments are the suite's own (config.argv), never a filter.
      if (arg === '--') break;
      if (!arg.startsWith('-') || arg === '-') {
        reasons.add(`a file filter (${arg})`);
        continue;
      }
      const [name = arg, attached] = arg.startsWith('--')
        ? arg.split(/=(.*)/s)
        : [arg.slice(0, 2), arg.length > 2 ? arg.slice(2) : undefined];
      const partial = PARTIAL_OPTIONS[name];
      if (partial !== undefined) reasons.add(partial);
      if (attached !== undefined) continue;
      if (VALUE_OPTIONS.has(name)) index++;
      else if (OPTIONAL_VALUE_OPTIONS.has(name) && args[index + 1] !== undefined && !args[index + 1]!.startsWith('-')) index++;
      else if (VARIADIC_OPTIONS.has(name)) while (args[index + 1] !== undefined && !args[index + 1]!.startsWith('-')) index++;
    }
  }
  if (shard !== null && shard.total > 1) reasons.add(`shard ${shard.current}/${shard.total}`);
  return [...reasons];
}
