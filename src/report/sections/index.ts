import { baselineSection } from './baseline.js';
import { attentionSection } from './attention.js';
import { budgetsSection } from './budgets.js';
import { chartSection } from './chart.js';
import { contractSection } from './contract.js';
import { endpointsSection } from './endpoints.js';
import { failedCallsSection } from './failedCalls.js';
import { failedTestsSection } from './failedTests.js';
import { flakySection } from './flaky.js';
import { footnoteSection } from './footnote.js';
import { headlineSection } from './headline.js';
import { hintSection } from './hint.js';
import { historySection } from './history.js';
import { noResponseSection } from './noResponse.js';
import { SECTION_IDS, type ReportSection, type SectionId } from './reportSection.js';
import { slowestSection } from './slowest.js';
import { sourcesSection } from './sources.js';
import { unrecordedSection } from './unrecorded.js';

/** Every section, one entry per id (the compiler holds it): each gives its Markdown, its HTML, or both. */
const SECTIONS: { readonly [Id in SectionId]: ReportSection<Id> } = {
  headline: headlineSection,
  attention: attentionSection,
  failedTests: failedTestsSection,
  failedCalls: failedCallsSection,
  hint: hintSection,
  budgets: budgetsSection,
  baseline: baselineSection,
  history: historySection,
  sources: sourcesSection,
  endpoints: endpointsSection,
  chart: chartSection,
  contract: contractSection,
  slowest: slowestSection,
  flaky: flakySection,
  noResponse: noResponseSection,
  unrecorded: unrecordedSection,
  footnote: footnoteSection,
};

/** The report's sections in the one order the Markdown and the HTML renderers walk them (SECTION_IDS). */
export const REPORT_SECTIONS: readonly ReportSection[] = SECTION_IDS.map((id) => SECTIONS[id]);
