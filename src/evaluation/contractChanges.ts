import type { Contract } from '../contract/contract.js';
import { evidenceIndexOfReport } from '../contract/diff/changeEvidence.js';
import { CHANGE_LEVELS, type ChangedOperation } from '../contract/diff/contractChange.js';
import { diffContracts } from '../contract/diff/diffContracts.js';
import type { ContractChanges } from '../report/contractSchemas.js';
import { MAX_LISTED_CONTRACT_CHANGES } from '../report/reportLimits.js';
import type { QualityReport } from '../report/qualityReport.js';
import { conditionWeightsOfReport, weighChanges, weighedSummary, type WeighedChange, type WeighedEvidence } from './weighedChanges.js';

/**
 * The report's `contract.changes` (issue 38, docs/contract-diff.md#in-a-runs-report):
 * every change between the contract's BASE (openapiBase) and its HEAD (the
 * run's openapi), each weighed by the run's own evidence, as `contract-diff
 * --report` weighs them by a report. The summary counts every change; the
 * list keeps the first {@link MAX_LISTED_CONTRACT_CHANGES}, breaking first,
 * then warning, then info, each level in the diff's order. Pure.
 */
export function contractChangesOf(report: QualityReport, base: Contract, head: Contract): ContractChanges {
  const weighed = weighChanges(
    diffContracts(base, head),
    base,
    head,
    { index: evidenceIndexOfReport(report), conditions: conditionWeightsOfReport(report) },
    basePathsIn(head, base),
  );
  const ordered = CHANGE_LEVELS.flatMap((level) => weighed.filter((change) => change.level === level));
  const listed = ordered.slice(0, MAX_LISTED_CONTRACT_CHANGES);
  const omitted = ordered.length - listed.length;
  return {
    base: base.documents.map(({ path, name }) => name ?? path),
    summary: weighedSummary(weighed),
    changes: listed.map(changeEntry),
    ...(omitted === 0 ? {} : { omittedChangeCount: omitted }),
  };
}

/** An operation's base paths, by its label: HEAD's, else BASE's (a removed operation); `''` alone for one neither has. */
export function basePathsIn(head: Contract, base: Contract): (operation: ChangedOperation) => readonly string[] {
  const byLabel = new Map<string, readonly string[]>();
  for (const operation of [...head.operations, ...base.operations])
    if (!byLabel.has(operation.label)) byLabel.set(operation.label, operation.basePaths);
  return (operation) => byLabel.get(operation.label) ?? [''];
}

/** A weighed change as the report holds it: the same fields, its lists copied. */
function changeEntry(change: WeighedChange): ContractChanges['changes'][number] {
  const { subject, evidence } = change;
  return {
    ...change,
    subject: 'property' in subject ? { ...subject, property: [...subject.property] } : { ...subject },
    evidence: evidenceEntry(evidence),
  };
}

function evidenceEntry(evidence: WeighedEvidence): ContractChanges['changes'][number]['evidence'] {
  if (!evidence.exercised) return { exercised: false };
  const { tests, ...counted } = evidence;
  return { ...counted, ...(tests === undefined ? {} : { tests: tests.map((test) => ({ ...test })) }) };
}
