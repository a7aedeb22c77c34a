import { StringDecoder } from 'node:string_decoder';
import type { FileSystem } from './fileSystem.js';

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

/**
 * How many bytes of a file are decoded into one string to be written: below
 * V8's largest young object (128 KiB), so that each string dies young; a
 * read chunk's (512 KiB) would go to the old generation, where 80 MB of
 * them pile up until a full collection.
 */
const DECODED_BYTES = 64 * 1024;

/**
 * Writes a file's text to a stream a read chunk at a time: the report
 * printed on standard output as the bytes of the file written, never held
 * whole.
 */
export async function writeFileTo(stream: { write(text: string): unknown }, fileSystem: FileSystem, path: string): Promise<void> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of await fileSystem.openChunks(path)) {
    for (let at = 0; at < chunk.length; at += DECODED_BYTES) stream.write(decoder.write(chunk.subarray(at, at + DECODED_BYTES)));
  }
  const rest = decoder.end();
  if (rest !== '') stream.write(rest);
}
