/**
 * The one place that reads what Playwright hands a reporter without
 * documenting it. Each read says what it falls back to when a Playwright
 * version no longer gives it, so a change there costs a feature, never a run.
 */

/**
 * Whether Playwright runs `playwright test --list`: it then runs no test, and
 * there is no evidence to write. Playwright (1.45 and later, at least) passes
 * `_mode: 'list'` in every reporter's options. Without it, a listing run
 * would write a report of zero executions, as any run without tests does.
 */
export function isListingRun(options: Readonly<Record<string, unknown>>): boolean {
  return options['_mode'] === 'list';
}
