import type { CodeOptions } from 'ajv';

/** ajv's regular-expression engine option (`code.regExp`): a pattern and its flags to something with `test`. */
export type RegExpEngine = NonNullable<CodeOptions['regExp']>;

/**
 * The engine body validation runs `pattern` and `patternProperties` with:
 * re2js, a pure-JavaScript port of RE2, which matches in time linear in the
 * text whatever the pattern, where JavaScript's own engine backtracks (a
 * response value of 28 characters against `^(a+)+$` took 10 to 19 s,
 * blocking the test's worker; 40 would take hours). A pattern is written
 * in JavaScript's syntax (ECMA-262, as JSON Schema says) and translated by
 * re2js; lookbehinds are linear there and allowed. A pattern it cannot run
 * in linear time (a backreference, a lookahead) throws when its schema is
 * compiled, so that schema is unusable and its bodies are counted as not
 * validated (`schemaUnusable`), never run by a backtracking engine. Loaded
 * only by a run that checks bodies.
 */
export async function loadLinearRegExpEngine(): Promise<RegExpEngine> {
  const { RE2JS } = await import('re2js');
  const engine = (pattern: string, flags: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), RE2JS.LOOKBEHINDS);
    // ajv keys the patterns of a schema by their text: each must print as itself.
    return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/${flags}` };
  };
  // ajv writes `code` into standalone validation code only, which this package never generates.
  return Object.assign(engine, { code: 're2js' });
}
