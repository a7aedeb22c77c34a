import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
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
 * How many bytes of a file are decoded into one string for a stream that
 * takes text: below V8's largest young object (128 KiB), so that each
 * string dies young.
 */
const DECODED_BYTES = 64 * 1024;

/**
 * Writes a file to a stream a read chunk at a time: the report printed on
 * standard output as the bytes of the file written, never held whole. A
 * Node stream (standard output) takes the bytes as read into one buffer,
 * each write waited for: a full pipe is waited for, not queued in memory (a
 * reader slower than the run would otherwise hold the whole report), and a
 * reader that goes away ends the printing, quietly. Anything else is given
 * the text, decoded.
 */
export async function writeFileTo(stream: { write(text: string): unknown }, fileSystem: FileSystem, path: string): Promise<void> {
  const chunks = await fileSystem.openChunks(path, { reuseBuffer: true });
  if (stream instanceof Writable) {
    for await (const chunk of chunks) if (!(await written(stream, chunk))) return;
    return;
  }
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += DECODED_BYTES) stream.write(decoder.write(chunk.subarray(at, at + DECODED_BYTES)));
  }
  const rest = decoder.end();
  if (rest !== '') stream.write(rest);
}

// Whether the bytes were written (the stream is done with them), or the stream failed (its reader went away).
function written(stream: Writable, bytes: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    stream.write(bytes, (error) => {
      resolve(error === undefined || error === null);
    });
  });
}
