/**
 * Finds the offset of the first character at which `text` stops being JSON,
 * or undefined when it is well-formed. Used only after JSON.parse has failed
 * without saying where (V8 omits the position for an unexpected token), so
 * that every syntax error can name a line and column. Iterative, so deeply
 * nested input cannot overflow the stack.
 */
export function locateJsonSyntaxError(text: string): number | undefined {
  const closers: string[] = [];
  let index = skipWhitespace(text, 0);
  let expecting: 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'after-value' = 'value';
  for (;;) {
    const char = text[index];
    if (expecting === 'after-value') {
      const closer = closers.at(-1);
      if (closer === undefined) return index < text.length ? index : undefined;
      if (char === ',') expecting = closer === '}' ? 'key' : 'value';
      else if (char === closer) closers.pop();
      else return index;
      index = skipWhitespace(text, index + 1);
      continue;
    }
    if (char === undefined) return index;
    if ((expecting === 'key-or-close' && char === '}') || (expecting === 'value-or-close' && char === ']')) {
      closers.pop();
      expecting = 'after-value';
      index = skipWhitespace(text, index + 1);
      continue;
    }
    if (expecting === 'key' || expecting === 'key-or-close') {
      if (char !== '"') return index;
      const afterKey = skipString(text, index);
      if (typeof afterKey !== 'number' || afterKey < 0) return afterKey === undefined ? text.length : -afterKey - 1;
      index = skipWhitespace(text, afterKey);
      if (text[index] !== ':') return index;
      index = skipWhitespace(text, index + 1);
      expecting = 'value';
      continue;
    }
    if (char === '{' || char === '[') {
      closers.push(char === '{' ? '}' : ']');
      expecting = char === '{' ? 'key-or-close' : 'value-or-close';
      index = skipWhitespace(text, index + 1);
      continue;
    }
    const end = char === '"' ? skipString(text, index) : skipScalar(text, index);
    if (end === undefined) return text.length;
    if (end < 0) return -end - 1;
    index = skipWhitespace(text, end);
    expecting = 'after-value';
  }
}

function skipWhitespace(text: string, index: number): number {
  let at = index;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    at++;
  }
  return at;
}

// Returns the offset after the closing quote, -(offset + 1) of a bad character,
// or undefined when the text ends inside the string.
function skipString(text: string, start: number): number | undefined {
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at + 1;
    if (code < 0x20) return -(at + 1);
    if (code === 0x5c) {
      const escape = text[at + 1];
      if (escape === undefined) return undefined;
      if (escape === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) return -(at + 1);
        at += 5;
      } else if ('"\\/bfnrt'.includes(escape)) {
        at += 1;
      } else {
        return -(at + 1);
      }
    }
  }
  return undefined;
}

const scalar = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

// Returns the offset after a number or literal, or -(offset + 1) when none starts here.
function skipScalar(text: string, start: number): number {
  scalar.lastIndex = start;
  return scalar.test(text) ? scalar.lastIndex : -(start + 1);
}
