/** The bytes of JSON's structure, as the byte scanners of the readers meet them (line breaks are in lineBreaks.ts). */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const SPACE = 0x20;
export const TAB = 0x09;
