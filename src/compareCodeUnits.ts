/** Sorts strings by UTF-16 code unit, not by locale, so that output is the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tests in one order: by file, then line, then title (code units), whatever order they were met in. */
export function compareTests(
  a: { readonly file: string; readonly line: number; readonly title: string },
  b: { readonly file: string; readonly line: number; readonly title: string },
): number {
  return compareCodeUnits(a.file, b.file) || a.line - b.line || compareCodeUnits(a.title, b.title);
}
