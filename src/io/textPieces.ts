/**
 * How much of a long text goes to a file or a stream at once: written whole,
 * a 70 MB report would first be copied into a 70 MB buffer of its own (twice,
 * for the file and for standard output); in pieces, one piece's buffer at a
 * time. 1 MiB: few enough writes that their cost vanishes.
 */
export const WRITE_PIECE_CHARACTERS = 1024 * 1024;

/**
 * A text cut into consecutive pieces of about `length` characters, never
 * between the two halves of a surrogate pair (each piece is whole UTF-16, so
 * it encodes to the same UTF-8 as its part of the text). A short text is
 * one piece, itself.
 */
export function* textPieces(text: string, length = WRITE_PIECE_CHARACTERS): Generator<string> {
  let start = 0;
  while (text.length - start > length) {
    let end = start + length;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd8_00 && last <= 0xdb_ff) end--;
    yield text.slice(start, end);
    start = end;
  }
  yield start === 0 ? text : text.slice(start);
}

/** Writes a text to a stream piece by piece (see {@link textPieces}): the report on standard output. */
export function writeInPieces(stream: { write(text: string): unknown }, text: string): void {
  for (const piece of textPieces(text)) stream.write(piece);
}
