import { endpointListHtml, endpointListMarkdown } from './endpointList.js';
import type { ReportSection } from './reportSection.js';

const TITLE = 'Flaky endpoints';
const LEAD = 'Failed only in attempts that a retry made good.';

/** The endpoints whose every failed execution came from an attempt that a retry made good. */
export const flakySection: ReportSection<'flaky'> = {
  id: 'flaky',
  keptWhenCut: false,
  markdown: (report, { limits }) => endpointListMarkdown(TITLE, LEAD, report.flakyEndpoints ?? [], limits.endpoints),
  html: (report, { limits }) => endpointListHtml(TITLE, LEAD, report.flakyEndpoints ?? [], limits.endpoints),
};
