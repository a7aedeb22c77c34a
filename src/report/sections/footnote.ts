import { PERCENTILE_METHOD } from '../renderers/presentation.js';
import { text } from './htmlParts.js';
import type { ReportSection } from './reportSection.js';

/** How the percentiles are computed (the Markdown says it only when there are any); the page also says which file holds its numbers exactly. */
export const footnoteSection: ReportSection<'footnote'> = {
  id: 'footnote',
  keptWhenCut: true,
  markdown: (report) => (report.executionCount > 0 ? ['', `<sub>${PERCENTILE_METHOD}</sub>`] : []),
  html: (_report, { reportName }) =>
    `<footer><p>${text(PERCENTILE_METHOD)}</p>` +
    `<p>Written by quality-evidence from ${text(reportName)}, which holds every number on this page exactly.</p></footer>`,
};
