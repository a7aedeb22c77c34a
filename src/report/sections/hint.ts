import { passingTestFailureHints } from '../renderers/presentation.js';
import type { ReportSection } from './reportSection.js';

/** Failed calls that passing tests made, said apart. No HTML: the page's headline says it (./headline.ts). */
export const hintSection: ReportSection<'hint'> = {
  id: 'hint',
  keptWhenCut: true,
  markdown: (report) => {
    return passingTestFailureHints(report).flatMap((hint) => ['', `ℹ️ ${hint}.`]);
  },
};
