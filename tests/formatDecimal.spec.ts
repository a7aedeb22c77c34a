import { expect, test } from './support/test.js';
import fc from 'fast-check';
import { formatDecimal, groupDigits } from '../src/renderValue.js';
import { propertyParameters } from './support/properties.js';

// The numbers written for people (Markdown, HTML, the terminal, the history
// page) are formatted by hand, as Intl.NumberFormat('en-US') formats them,
// so that no run loads ICU's locale data (src/renderValue.ts). Intl is the
// reference here: every double, every number of decimals the renderings use.

const FORMATS = new Map(
  [undefined, 0, 1, 2, 3].map((digits) => [
    digits,
    new Intl.NumberFormat('en-US', digits === undefined ? {} : { maximumFractionDigits: digits }),
  ]),
);
const intl = (digits: number | undefined): Intl.NumberFormat => FORMATS.get(digits)!;

test('any double is written as Intl.NumberFormat en-US writes it, to 0, 1, 2 and 3 decimals and by default', () => {
  fc.assert(
    // A boolean, not expect(): Playwright's expect costs milliseconds a call, and fc.assert names the counterexample.
    fc.property(
      fc.double(),
      fc.constantFrom(undefined, 0, 1, 2, 3),
      (value, digits) => formatDecimal(value, digits) === intl(digits).format(value),
    ),
    propertyParameters(),
  );
});

test('times and percentages as a report holds them (hundredths, thousandths) are written as Intl writes them', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -10_000_000, max: 100_000_000 }),
      fc.constantFrom(1, 10, 100, 1000, 10_000),
      fc.constantFrom(0, 1, 2, 3),
      (units, scale, digits) => formatDecimal(units / scale, digits) === intl(digits).format(units / scale),
    ),
    propertyParameters(),
  );
});

test('halves are rounded away from zero on the shortest decimal, as V8 Intl rounds them, not on the double beneath', () => {
  expect([0.15, 2.675, 1.005, 0.05, 9.95, 99.95, 999.9996].map((value) => formatDecimal(value, value === 999.9996 ? 3 : 1))).toStrictEqual([
    '0.2',
    '2.7',
    '1',
    '0.1',
    '10',
    '100',
    '1,000',
  ]);
  expect(formatDecimal(2.675, 2)).toBe('2.68');
});

test('signs, zeros and the numbers past a double digit string are written as Intl writes them', () => {
  expect(
    [-0, -0.01, -1234.56, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 1.5e-7, 5e-324].map((value) =>
      formatDecimal(value, 1),
    ),
  ).toStrictEqual(['-0', '-0', '-1,234.6', 'NaN', '∞', '-∞', '1,000,000,000,000,000,000,000', '0', '0']);
});

test('a whole number is grouped by thousands as Intl groups it', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (value) => groupDigits(value) === intl(0).format(value)));
});
