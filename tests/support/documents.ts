import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './runProgram.js';

/** A Markdown document of the repository: its path from the root, and its text. */
export interface Document {
  readonly path: string;
  readonly text: string;
}

/** README.md, CONTRIBUTING.md and every page of docs/: the documents a user or a contributor reads. */
export function readDocuments(): Document[] {
  const pages = readdirSync(join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...pages].map((path) => ({ path, text: readFileSync(join(repositoryRoot, path), 'utf8') }));
}

/** One line of a document with whether it is inside a fenced code block (the fences themselves count as inside). */
interface Line {
  readonly number: number;
  readonly text: string;
  readonly fenced: boolean;
}

function linesOf(text: string): Line[] {
  let fence: string | undefined;
  return text.split('\n').map((line, index) => {
    const opener = /^\s*(`{3,})/.exec(line)?.[1];
    const fenced = fence !== undefined || opener !== undefined;
    if (fence === undefined && opener !== undefined) fence = opener;
    else if (fence !== undefined && line.trim() === fence) fence = undefined;
    return { number: index + 1, text: line, fenced };
  });
}

/**
 * GitHub's anchor for a heading: lower case, every character that is not a
 * letter, a digit, a space, `-` or `_` dropped (backticks and colons too),
 * spaces as `-`; a repeated heading gets `-1`, `-2`, ...
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOf(text)) {
    const heading = line.fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** A link of a document: its target as written, and the line it is on. */
export interface Link {
  readonly target: string;
  readonly line: number;
}

/** The inline links and images of a document (`[text](target)`), outside code blocks and code spans. */
export function linksOf(text: string): Link[] {
  const links: Link[] = [];
  for (const line of linesOf(text)) {
    if (line.fenced) continue;
    const prose = line.text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: match[1] ?? '', line: line.number });
  }
  return links;
}

/** How a block is checked: the comment on the line before its fence, `<!-- check: KIND option=value ... -- reason -->`. */
export interface BlockCheck {
  readonly kind: string;
  readonly options: ReadonlyMap<string, string>;
  /** The words after ` -- `: why a block, or some of its lines, is not checked. */
  readonly reason: string | undefined;
}

/** A fenced code block of a document. */
export interface CodeBlock {
  readonly document: string;
  /** The line of its opening fence. */
  readonly line: number;
  /** The info string after the fence: `sh`, `ts`, `json`, `yaml`, or nothing. */
  readonly language: string;
  readonly code: string;
  /** Its check comment, or undefined when the line before the fence holds none. */
  readonly check: BlockCheck | undefined;
}

/** Every fenced code block of a document, with the check comment before it (indented blocks in lists too). */
export function codeBlocksOf(document: Document): CodeBlock[] {
  const lines = document.text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opener = /^(\s*)(`{3,})(\S*)\s*$/.exec(lines[index] ?? '');
    if (opener === null) continue;
    const [, indent = '', fence = '', language = ''] = opener;
    const end = lines.findIndex((line, at) => at > index && line.trim() === fence);
    if (end === -1) throw new Error(`${document.path}:${index + 1}: a code block that is never closed`);
    const code = lines
      .slice(index + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    blocks.push({ document: document.path, line: index + 1, language, code: `${code}\n`, check: parseCheck(lines[index - 1] ?? '') });
    index = end;
  }
  return blocks;
}

function parseCheck(line: string): BlockCheck | undefined {
  const match = /^\s*<!-- check: (\S+)(.*?)(?: -- (.*?))? -->\s*$/.exec(line);
  if (match === null) return undefined;
  const [, kind = '', rest = '', reason] = match;
  const options = new Map<string, string>();
  for (const option of rest.trim().split(/\s+/).filter(Boolean)) {
    const [key = '', ...value] = option.split('=');
    options.set(key, value.join('='));
  }
  return { kind, options, reason };
}
