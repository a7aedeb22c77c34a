import type { QualityReport } from '../qualityReport.js';
import { countOf } from '../renderers/presentation.js';
import { endpointListHtml, endpointListMarkdown } from './endpointList.js';
import type { ReportSection } from './reportSection.js';

const TITLE = 'Calls not recorded';

function lead(report: QualityReport): string {
  return `${countOf(report.unrecordedCallCount ?? 0, 'API call')} that the tests sent are in no record, so this report leaves them out.`;
}

/** The endpoints of API calls the tests sent that no record holds; only when there were such calls. */
export const unrecordedSection: ReportSection<'unrecorded'> = {
  id: 'unrecorded',
  keptWhenCut: false,
  markdown: (report, { limits }) =>
    (report.unrecordedCallCount ?? 0) > 0
      ? endpointListMarkdown(TITLE, lead(report), report.unrecordedEndpoints ?? [], limits.endpoints)
      : [],
  html: (report, { limits }) =>
    (report.unrecordedCallCount ?? 0) > 0 ? endpointListHtml(TITLE, lead(report), report.unrecordedEndpoints ?? [], limits.endpoints) : '',
};
