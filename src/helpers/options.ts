import { shorten } from '../renderValue.js';
// Internal: the checks every helper applies to its options before doing any
// work. A number outside its range is a RangeError; anything else (missing,
// wrong type, empty name) is a TypeError. Each message names the helper and
// the option. The values are typed `unknown` because JavaScript callers and
// casts can pass anything, whatever the TypeScript types say.

type HelperName = 'pollUntil' | 'retryBounded';

export function checkOptionsObject(helper: HelperName, options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${helper}: expects an options object; got ${describeOptionValue(options)}`);
  }
}

export function checkOperationName(helper: HelperName, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${optionLabel(helper, 'operationName')} must be a non-empty string; got ${describeOptionValue(value)}`);
  }
}

export function checkFunction(helper: HelperName, option: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new TypeError(`${optionLabel(helper, option)} must be a function; got ${describeOptionValue(value)}`);
  }
}

export function checkClock(helper: HelperName, value: unknown): void {
  const isClock =
    typeof value === 'object' &&
    value !== null &&
    'now' in value &&
    'sleep' in value &&
    typeof value.now === 'function' &&
    typeof value.sleep === 'function';
  if (!isClock) {
    throw new TypeError(
      `${optionLabel(helper, 'clock')} must be a clock with now() and sleep(ms), such as systemClock; got ${describeOptionValue(value)}`,
    );
  }
}

/** Milliseconds that may be zero: a timeout or a delay. */
export function checkDurationMs(helper: HelperName, option: string, value: unknown): void {
  checkNumber(helper, option, value, 'a finite number of milliseconds, 0 or more', (ms) => Number.isFinite(ms) && ms >= 0);
}

/** Milliseconds that must be above zero: a polling interval. */
export function checkPositiveDurationMs(helper: HelperName, option: string, value: unknown): void {
  checkNumber(helper, option, value, 'a finite number of milliseconds above 0', (ms) => Number.isFinite(ms) && ms > 0);
}

export function checkAttemptCount(helper: HelperName, option: string, value: unknown): void {
  checkNumber(helper, option, value, 'an integer, 1 or more', (count) => Number.isSafeInteger(count) && count >= 1);
}

function checkNumber(helper: HelperName, option: string, value: unknown, rule: string, holds: (value: number) => boolean): void {
  if (typeof value !== 'number') {
    throw new TypeError(`${optionLabel(helper, option)} must be ${rule}; got ${describeOptionValue(value)}`);
  }
  if (!holds(value)) throw new RangeError(`${optionLabel(helper, option)} must be ${rule}; got ${value}`);
}

function optionLabel(helper: HelperName, option: string): string {
  return `${helper}: option "${option}"`;
}

/** A short rendering of a refused value; functions and objects by their type only. */
function describeOptionValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string': {
      return shorten(JSON.stringify(value.slice(0, 40)), 40);
    }
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
