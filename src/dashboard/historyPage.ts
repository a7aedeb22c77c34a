import { parseHistory } from '../history/historyParse.js';
import { dashboardModelOf } from './dashboardModel.js';
import { renderDashboard } from './dashboardPage.js';

/** What the history page written with a run (dashboardPath) is drawn from besides the history's text. */
export interface HistoryPageOptions {
  /** The history file's name, as the page's footer says it. */
  readonly historyName: string;
  /** The runs failure rates and flakiness are scored over (the flakinessRuns setting). */
  readonly flakinessRuns: number;
}

/** The history page of a history file's text: what `quality-evidence dashboard` writes of the same file. */
export function historyPageOf(historyText: string, { historyName, flakinessRuns }: HistoryPageOptions): string {
  const history = parseHistory(historyText, historyName);
  return renderDashboard(dashboardModelOf(history.runs, history.skippedLines, { flakinessRuns }), { historyName });
}
