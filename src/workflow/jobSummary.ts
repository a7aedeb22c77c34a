import { groupDigits, shorten } from '../renderValue.js';

/**
 * The most GitHub takes into one step's job summary: 1 MiB. A larger
 * summary is not shown at all (GitHub says only that it is too large).
 */
export const JOB_SUMMARY_LIMIT_BYTES = 1024 * 1024;

// The line under a table's header: `|---|---:|`.
const TABLE_SEPARATOR = /^\|(?:\s*:?-+:?\s*\|)+$/;

// Room kept for the closing note: its words and the titles of the sections left out.
const NOTE_ROOM_BYTES = 2048;

/**
 * The Markdown as it goes into the job summary: whole when it fits in
 * `limitBytes`; otherwise cut after the last whole line that fits (a table
 * keeps whole rows, a section never ends at its title), and closed by a note
 * saying what was left out (the rows of the section that was cut, the
 * sections that follow) and that `fullReportName` holds all of it.
 */
export function fitJobSummary(markdown: string, fullReportName: string, limitBytes = JOB_SUMMARY_LIMIT_BYTES): string {
  if (Buffer.byteLength(markdown, 'utf8') <= limitBytes) return markdown;
  const lines = markdown.split('\n');
  const room = limitBytes - NOTE_ROOM_BYTES;
  let used = 0;
  let kept = 0;
  while (kept < lines.length && used + Buffer.byteLength(lines[kept]!, 'utf8') + 1 <= room)
    used += Buffer.byteLength(lines[kept++]!, 'utf8') + 1;
  // Never end on a blank line, a title with nothing under it, or a table's header without a row.
  for (;;) {
    const last = lines[kept - 1];
    if (last === '' || last?.startsWith('#') === true) kept--;
    else if (last !== undefined && TABLE_SEPARATOR.test(last)) kept -= 2;
    else break;
  }
  const left = lines.slice(kept);
  const nextSection = left.findIndex((line) => line.startsWith('### '));
  const restOfCut = (nextSection === -1 ? left : left.slice(0, nextSection)).filter((line) => line.trim() !== '');
  const cutTitle = [...lines.slice(0, kept)]
    .reverse()
    .find((line) => line.startsWith('### '))
    ?.slice(4);
  const parts: string[] = [];
  if (restOfCut.length > 0) {
    const rows = restOfCut.every((line) => line.startsWith('|'));
    const what = `${groupDigits(restOfCut.length)} more ${rows ? 'row' : 'line'}${restOfCut.length === 1 ? '' : 's'}`;
    parts.push(cutTitle === undefined ? what : `${what} of “${cutTitle}”`);
  }
  const sections = left.filter((line) => line.startsWith('### ')).map((line) => `“${line.slice(4)}”`);
  if (sections.length > 0) parts.push(`the section${sections.length === 1 ? '' : 's'} ${sections.join(', ')}`);
  const note = shorten(
    `> ✂️ **Cut to fit GitHub's 1 MiB job summary**: ${parts.join(' and ')} left out; ${fullReportName} holds the whole report.`,
    NOTE_ROOM_BYTES / 4 - 8,
  );
  return `${[...lines.slice(0, kept), '', note].join('\n')}\n`;
}
