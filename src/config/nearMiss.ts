/**
 * The key a name was probably meant to be, among `keys`: the same but for
 * letter case, or at most two edits away (a letter missing, added, changed
 * or two swapped) from a key of five letters or more. Undefined when none
 * is that near: then the name is no typo of a known key.
 */
export function nearMissOf(name: string, keys: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return keys.find((key) => key.toLowerCase() === lower || (key.length >= 5 && editDistance(lower, key.toLowerCase()) <= 2));
}

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
