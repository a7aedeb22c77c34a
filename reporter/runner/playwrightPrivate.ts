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

/**
 * The config's global setup and teardown files, absolute, as Playwright runs
 * them. `FullConfig.globalSetup` is one file or null; newer versions take
 * an array in the config and keep its first file there (1.65 does). Every
 * file is on Playwright's internal config (`globalSetups`, `globalTeardowns`,
 * under a symbol described `configInternalSymbol`), read from there where it
 * is (1.65); else the public fields, a string (1.45) or an array should a
 * version give one there.
 */
export function globalHookFilesOf(config: { readonly globalSetup?: unknown; readonly globalTeardown?: unknown }): {
  readonly setups: string[];
  readonly teardowns: string[];
} {
  const internal = Object.getOwnPropertySymbols(config)
    .filter((symbol) => symbol.description === 'configInternalSymbol')
    .map((symbol): unknown => Reflect.get(config, symbol))[0];
  const setups = filesIn(typeof internal === 'object' && internal !== null ? Reflect.get(internal, 'globalSetups') : undefined);
  const teardowns = filesIn(typeof internal === 'object' && internal !== null ? Reflect.get(internal, 'globalTeardowns') : undefined);
  return {
    setups: setups ?? filesIn(config.globalSetup) ?? [],
    teardowns: teardowns ?? filesIn(config.globalTeardown) ?? [],
  };
}

/** The files a value names: a string, or an array of strings; undefined for anything else (null included). */
function filesIn(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((file) => typeof file === 'string')) return value;
  return undefined;
}
