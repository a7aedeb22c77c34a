import { escapeControlCharacters, quotePath } from '../renderValue.js';
import { EnvironmentValue, SuppliedValue, type BuiltRequest, type DraftBody, type TextPart } from './operationRequests.js';
import { RepeatedText } from './schemaValues.js';

/**
 * Drafted tests written as a Playwright spec file in TypeScript: a header
 * saying what drafted it, from what, and that it is a draft; the import of
 * quality-evidence's `test`; one test per gap. Every text from the document
 * is written as a string literal or in a comment with its line breaks and
 * controls escaped, so no document can put code into a draft.
 */

/** What a test asserts of the response's status: a code, a range (`4` for 4XX), or nothing (a `default` response). */
export type Expected = { readonly code: number } | { readonly range: number } | { readonly none: true };

/** One drafted test. */
export interface DraftedTest {
  readonly title: string;
  /** The operation's label: `GET /pets`. */
  readonly operation: string;
  readonly deprecated: boolean;
  readonly built: BuiltRequest;
  readonly expected: Expected;
  /** What to arrange first (the test is then a `test.fixme`), one line each. */
  readonly arrange: readonly string[];
  /** The unmet conditions it was drafted to meet: `enumValue #/...`. */
  readonly covers: readonly string[];
}

/** The first line of every drafted file: suggest replaces a file only while it starts with it. */
export const DRAFT_MARKER = '// Drafted by quality-evidence suggest: a draft to review, not a finished test.';

/** What a file's header names. */
export interface DraftSources {
  readonly seed: number;
  readonly report: string;
  readonly documents: readonly string[];
}

/** A drafted spec file's text. */
export function renderSpecFile(tests: readonly DraftedTest[], sources: DraftSources): string {
  const environment = new Map<string, string>();
  for (const test of tests)
    for (const value of test.built.environment) if (!environment.has(value.variable)) environment.set(value.variable, value.what);
  const documents = sources.documents.map(quotePath).join(', ');
  const lines = [
    DRAFT_MARKER,
    ...commentLines(
      `From the report ${quotePath(sources.report)} and the OpenAPI document${sources.documents.length === 1 ? '' : 's'} ${documents}, ` +
        `with --seed ${sources.seed}. Each test sends a request built from the document to meet what the run never met, and asserts ` +
        'the status the document declares: check its values and its expected status before keeping it; a test.fixme says what ' +
        'to supply or arrange first. suggest replaces this file while its first line is the one above: to keep your changes, ' +
        'rename it (drop .suggested from its name).',
      '',
    ),
  ];
  if (environment.size > 0)
    lines.push(
      ...commentLines(
        `Set before running: ${[...environment].map(([variable, what]) => `${variable} (${what})`).join(', ')}. ` +
          'They are read when a test runs, never written here.',
        '',
      ),
    );
  lines.push("import { test, expect } from 'quality-evidence/test';");
  if (environment.size > 0)
    lines.push(
      '',
      '/** A value the tests send, read from the environment, so that it is never written in this file. */',
      'function fromEnvironment(name: string): string {',
      '  const value = process.env[name];',
      "  if (value === undefined || value === '') throw new Error(`Set the environment variable ${name}: these tests send it.`);",
      '  return value;',
      '}',
    );
  for (const test of tests) lines.push('', ...renderTest(test));
  return `${lines.join('\n')}\n`;
}

function renderTest(test: DraftedTest): string[] {
  const { built, expected } = test;
  const fixme = test.arrange.length > 0 || built.supplied.length > 0 || built.unsupported !== undefined;
  const lines = [`test${fixme ? '.fixme' : ''}(${quote(singleLine(test.title))}, async ({ request }) => {`];
  if (test.covers.length > 0) lines.push(...commentLines(`Covers: ${test.covers.join(', ')}.`, '  '));
  if (test.deprecated) lines.push(...commentLines(`${test.operation} is deprecated.`, '  '));
  const names = new Map<SuppliedValue, string>();
  const used = new Set(['request', 'response', 'test', 'expect', 'fromEnvironment']);
  const supplied = collectSupplied(built);
  for (const value of supplied) names.set(value, identifierFor(value.parameter.name, used));
  if (fixme) {
    const todo = [
      ...supplied.map(
        ({ parameter }) =>
          `supply ${parameter.name}, the path parameter of ${test.operation} (${parameter.where}): a value the server knows ` +
          '(an id a test makes first, or one your data holds)',
      ),
      ...(built.unsupported === undefined ? [] : [`supply ${built.unsupported}, which the draft does not make`]),
    ];
    if (todo.length > 0) lines.push(...commentLines(`To run it: ${todo.join('; ')}; then remove .fixme.`, '  '));
    for (const line of test.arrange) lines.push(...commentLines(line, '  '));
  }
  for (const value of supplied) lines.push(`  const ${names.get(value)!} = '';`);
  const call = renderCall(built, names);
  if ('none' in expected) {
    lines.push(...commentLines('The document declares this response as its default: assert the status you arrange.', '  '));
    lines.push(`  await ${call};`);
  } else {
    lines.push(`  const response = await ${call};`);
    if ('code' in expected) lines.push(`  expect(response.status()).toBe(${expected.code});`);
    else {
      lines.push(`  expect(response.status()).toBeGreaterThanOrEqual(${expected.range * 100});`);
      lines.push(`  expect(response.status()).toBeLessThan(${expected.range * 100 + 100});`);
    }
  }
  lines.push('});');
  return lines;
}

/** The path parameters a request needs supplied, in its path's order. */
function collectSupplied(built: BuiltRequest): SuppliedValue[] {
  return built.request.path.flatMap((part) => (typeof part !== 'string' && part.value instanceof SuppliedValue ? [part.value] : []));
}

/** A raw piece of code inside a literal. */
class Code {
  constructor(readonly text: string) {}
}

const CALLED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

function renderCall(built: BuiltRequest, names: ReadonlyMap<SuppliedValue, string>): string {
  const { request } = built;
  const options: [string, unknown][] = [];
  const listed = request.query.some(([, value]) => Array.isArray(value));
  let path = request.path.map((part) => (typeof part === 'string' ? { text: part } : pathValue(part.value, names)));
  if (listed) {
    // A list is sent as the parameter repeated, which only the query string itself can say.
    const pieces: ({ text: string } | { code: string })[] = [];
    request.query.forEach(([name, value], index) => {
      for (const item of Array.isArray(value) ? value : [value]) {
        pieces.push({ text: `${pieces.length === 0 && index === 0 ? '?' : '&'}${encodeURIComponent(name)}=` }, pathValue(item, names));
      }
    });
    path = [...path, ...pieces];
  } else if (request.query.length > 0)
    options.push(['params', Object.fromEntries(request.query.map(([name, value]) => [name, scalar(value)]))]);
  const headers: [string, unknown][] = request.headers.map(([name, parts]) => [name, textValue(parts)]);
  const body = request.body;
  if (body !== undefined) options.push(...bodyOptions(body, headers));
  if (headers.length > 0)
    options.splice(options.length === 0 || options[0]![0] !== 'params' ? 0 : 1, 0, ['headers', Object.fromEntries(headers)]);
  const url = renderPath(path);
  const method = request.method.toUpperCase();
  if (!CALLED_METHODS.has(method)) options.unshift(['method', method]);
  const callee = CALLED_METHODS.has(method) ? `request.${method.toLowerCase()}` : 'request.fetch';
  if (options.length === 0) return `${callee}(${url})`;
  // The call starts a line `  const response = await ` long.
  return `${callee}(${url}, ${literal(Object.fromEntries(options), '  ', 27 + callee.length + url.length + 3)})`;
}

function bodyOptions(body: DraftBody, headers: [string, unknown][]): [string, unknown][] {
  if (body.kind !== 'data') return [[body.kind, body.value]];
  const structured = typeof body.value === 'object' && body.value !== null && !(body.value instanceof RepeatedText);
  // Playwright sends an object or array as JSON, with application/json; a string as it is: JSON text is made here then.
  if (body.mediaType !== 'application/json' || !structured) headers.push(['content-type', body.mediaType]);
  return [['data', structured ? body.value : new Code(`JSON.stringify(${literal(body.value, '  ')})`)]];
}

/** A path value: a scalar encoded now, a supplied or environment value encoded when the test runs. */
function pathValue(value: unknown, names: ReadonlyMap<SuppliedValue, string>): { text: string } | { code: string } {
  if (value instanceof SuppliedValue) return { code: `encodeURIComponent(${names.get(value) ?? "''"})` };
  if (value instanceof EnvironmentValue) return { code: `encodeURIComponent(${literal(value, '')})` };
  if (value instanceof RepeatedText) return { code: literal(value, '') };
  return { text: encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value)) };
}

function renderPath(parts: readonly ({ text: string } | { code: string })[]): string {
  const texts = parts.flatMap((part) => ('text' in part ? [part.text] : []));
  if (texts.length === parts.length) return quote(texts.join(''));
  return `\`${parts.map((part) => ('text' in part ? escapeTemplate(part.text) : `\${${part.code}}`)).join('')}\``;
}

function textValue(parts: readonly TextPart[]): unknown {
  if (parts.length === 1) return parts[0];
  return new Code(`\`${parts.map((part) => (typeof part === 'string' ? escapeTemplate(part) : `\${${literal(part, '')}}`)).join('')}\``);
}

/** A query or form value Playwright takes: a string, number or boolean; anything else as its JSON. */
function scalar(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof EnvironmentValue || value instanceof RepeatedText) return value;
  return JSON.stringify(value);
}

/** How long a line of a draft may grow before an object or array in it is written one entry a line. */
const LINE_WIDTH = 120;

/** A value as TypeScript source: objects and arrays on one line when they fit after `column` characters, else one entry a line. */
function literal(value: unknown, indent: string, column = indent.length): string {
  const inline = inlineLiteral(value);
  if (
    typeof value !== 'object' ||
    value === null ||
    value instanceof Code ||
    value instanceof RepeatedText ||
    value instanceof EnvironmentValue
  )
    return inline;
  if (column + inline.length + 3 <= LINE_WIDTH) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join('\n')}\n${indent}]`;
  const lines = Object.entries(value).map(([key, item]) => {
    const name = `${propertyKey(key)}: `;
    return `${inner}${name}${literal(item, inner, inner.length + name.length)},`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** A value as TypeScript source on one line. */
function inlineLiteral(value: unknown): string {
  if (value instanceof Code) return value.text;
  if (value instanceof RepeatedText) return `${quote(value.text)}.repeat(${value.count})`;
  if (value instanceof EnvironmentValue) return `fromEnvironment(${quote(value.variable)})`;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? '0' : String(value)) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (value === null || typeof value !== 'object') return 'null';
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(', ')}]`;
  const entries = Object.entries(value).map(([key, item]) => `${propertyKey(key)}: ${inlineLiteral(item)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

function propertyKey(key: string): string {
  // `__proto__` written plainly would set the object's prototype, not make a property.
  if (key === '__proto__') return `[${quote(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

/** Characters a string literal or comment writes as an escape: controls, line and paragraph separators, bidirectional controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A string as a single-quoted TypeScript literal; a lone surrogate escaped too, as a UTF-8 file cannot hold it. */
export function quote(text: string): string {
  let quoted = "'";
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        quoted += char + text[index + 1]!;
        index++;
        continue;
      }
    }
    if (char === "'" || char === '\\') quoted += `\\${char}`;
    else if (ESCAPED.test(char) || (code >= 0xd800 && code <= 0xdfff)) quoted += `\\u${code.toString(16).padStart(4, '0')}`;
    else quoted += char;
  }
  return `${quoted}'`;
}

function escapeTemplate(text: string): string {
  return quote(text).slice(1, -1).replaceAll("\\'", "'").replaceAll('`', '\\`').replaceAll('${', '\\${');
}

/** Text on one line: controls (line breaks among them) and lone surrogates escaped. */
function singleLine(text: string): string {
  return escapeControlCharacters(text).replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16)}`,
  );
}

/** A comment, its text on lines of at most about 110 characters, each line's controls escaped. */
function commentLines(text: string, indent: string): string[] {
  const words = singleLine(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + word.length + 1 > 110) {
      lines.push(`${indent}// ${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}// ${line}`);
  return lines;
}

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface ' +
    'package private protected public await async of undefined'
  ).split(' '),
);

/** A variable name for a parameter's value: its name made an identifier (`pet-id` is `petId`), unique in the test. */
function identifierFor(name: string, used: Set<string>): string {
  const words = name.split(/[^A-Za-z0-9_$]+/).filter(Boolean);
  let identifier = words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
  if (identifier === '' || /^[0-9]/.test(identifier)) identifier = `parameter${identifier}`;
  if (RESERVED.has(identifier)) identifier = `${identifier}Value`;
  let unique = identifier;
  for (let number = 2; used.has(unique); number++) unique = `${identifier}${number}`;
  used.add(unique);
  return unique;
}
