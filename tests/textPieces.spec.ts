import fc from 'fast-check';
import { expect, test } from './support/test.js';
import { textPieces, writeFileTo } from '../src/io/textPieces.js';
import type { FileSystem } from '../src/io/fileSystem.js';

// A long report is written to its file and to standard output a piece at a time (one piece's bytes at once, not the
// whole text's): the pieces must make exactly the text, and each must be whole UTF-16, or its UTF-8 would differ.

test('the pieces of a text, joined, are the text, each at most the length asked and none ending in half a surrogate pair', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 2, max: 20 }), (text, length) => {
      const pieces = [...textPieces(text, length)];
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces) {
        expect(piece.length).toBeLessThanOrEqual(length);
        const last = piece.charCodeAt(piece.length - 1);
        if (piece !== pieces.at(-1)) expect(last >= 0xd8_00 && last <= 0xdb_ff).toBe(false);
      }
      expect(Buffer.concat(pieces.map((piece) => Buffer.from(piece, 'utf8')))).toEqual(Buffer.from(text, 'utf8'));
    }),
  );
});

test('a text no longer than a piece is one piece, itself; an empty text is one empty piece', () => {
  expect([...textPieces('abc', 3)]).toEqual(['abc']);
  expect([...textPieces('', 3)]).toEqual(['']);
});

test('a pair of surrogates across a cut goes whole into the next piece', () => {
  expect([...textPieces('ab😀cd', 3)]).toEqual(['ab', '😀c', 'd']);
});

test('writeFileTo writes a file read in chunks to the stream, each character whole where a chunk cuts it, in strings of at most 64 KiB', async () => {
  const text = `${'x'.repeat(70_000)}😀é€`;
  const bytes = Buffer.from(text, 'utf8');
  // Cut inside the emoji (4 bytes) and inside the euro sign (3 bytes).
  const cuts = [0, 70_002, 70_005, bytes.length - 1, bytes.length];
  const fileSystem = {
    openChunks: (path: string) => {
      expect(path).toBe('out/q.json');
      const chunks = cuts.slice(1).map((cut, index) => bytes.subarray(cuts[index], cut));
      return Promise.resolve(chunks);
    },
  } as unknown as FileSystem;
  const written: string[] = [];

  await writeFileTo({ write: (piece: string) => written.push(piece) }, fileSystem, 'out/q.json');

  expect(written.join('')).toBe(text);
  expect(written.map((piece) => piece.length)).toEqual([65_536, 4_464, 2, 1, 1]);
});
