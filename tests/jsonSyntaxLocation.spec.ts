import { expect, test } from './support/test.js';
import { InputSyntaxError, parseInputJson } from '../src/index.js';
import { locateJsonSyntaxError } from '../src/input/locateJsonSyntaxError.js';
import { thrownBy } from './support/failures.js';

// V8 names the position of most JSON syntax errors; where it does, it is the
// oracle for the scanner that fills in the position where it does not.
const malformedWithV8Position = [
  '{"a":1,}',
  '{"a" 1}',
  '[1 2]',
  "{'a':1}",
  '{"a":"x\ny"}',
  '[1]x',
  '{"a":01}',
  '{"executions": [\n  {"statusCode": 200,, }\n]}',
  '[1, 2',
  '"abc',
  '{"a":1}}',
  '[-01]',
  '{"a":[{"b":{"c":[1,2,{"d":"e"}]}}] ,}',
];

for (const text of malformedWithV8Position) {
  test(`the scanner finds the offset V8 reports for ${JSON.stringify(text)}`, () => {
    const v8Offset = Number(/at position (\d+)/.exec(String(thrownBy(() => JSON.parse(text))))?.[1]);

    expect(locateJsonSyntaxError(text)).toBe(v8Offset);
  });
}

const wellFormed = ['{}', '[]', '0', '-0.5e-3', '"\\u00e9\\n"', 'true', ' null ', '{"a":[1,{"b":false}],"c":"d"}', '\n[\t1 ,\r\n 2 ]\n'];

for (const text of wellFormed) {
  test(`the scanner accepts well-formed ${JSON.stringify(text)}`, () => {
    expect(locateJsonSyntaxError(text)).toBeUndefined();
  });
}

test('an unexpected token, which V8 reports without a position, gets a line and column', () => {
  const error = thrownBy(() => parseInputJson('{ "executions": [\n  { "statusCode": 200, "endpoint": }\n] }'));

  expect(error).toBeInstanceOf(InputSyntaxError);
  expect(error).toMatchObject({ line: 2, column: 36 });
  expect((error as Error).message).toMatch(/^the input file is not well-formed JSON at line 2, column 36: Unexpected token '\}'/);
});

test('a bad literal deep in the document is located where it starts', () => {
  expect(thrownBy(() => parseInputJson('[1,\n[2,\n[tru]]]'))).toMatchObject({ line: 3, column: 2 });
});

test('a deeply nested document does not overflow the scanner', () => {
  expect(locateJsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
  expect(locateJsonSyntaxError(`${'['.repeat(100_000)}}`)).toBe(100_000);
});
