import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadQualityToolConfig, nodeFileSystem, runQualityWorkflow, type QualityReport } from '../../src/index.js';
import { createTemporaryFolder } from './runProgram.js';

/**
 * A deterministic run of many endpoints, for the renderings' specs: counts
 * from 1 to 40 per endpoint, times with decimals, failures on every ninth
 * endpoint, a call with no response on a few; `variant` shifts the times and
 * counts, so two variants make a baseline and a run that differ.
 */
export function generatedRecords(endpointCount: number, variant = 0): object[] {
  const methods = ['GET', 'POST', 'PUT', 'DELETE'];
  const records: object[] = [];
  for (let index = 0; index < endpointCount; index++) {
    const endpoint = `${methods[index % methods.length]!} /service-${String(index).padStart(2, '0')}/items`;
    const count = 1 + ((index * 7 + variant) % 40);
    for (let call = 0; call < count; call++) {
      const responseTimeMs = 20 + ((index * 37 + call * 13 + variant * 111) % 900) + (call % 10) / 20;
      if (index % 17 === 5 && call === 0) records.push({ errorCode: 'ECONNREFUSED', endpoint, responseTimeMs });
      else records.push({ statusCode: index % 9 === 0 && call % 3 === 0 ? 500 : 200, endpoint, responseTimeMs, id: `e${index}-c${call}` });
    }
  }
  return records;
}

/** Where a generated run's files are. */
export interface GeneratedRun {
  readonly folder: string;
  readonly jsonPath: string;
  readonly markdownPath: string;
  readonly htmlPath: string;
  readonly report: QualityReport;
}

/**
 * Writes a run of `endpointCount` endpoints through the real workflow into a
 * fresh folder, judged by budgets (one of them breached by an endpoint) and
 * compared with a baseline (the same run's variant 1), so every section of
 * the renderings has something to show.
 */
export async function writeGeneratedRun(endpointCount: number, extraRecords: readonly object[] = []): Promise<GeneratedRun> {
  const folder = await createTemporaryFolder();
  await writeFile(join(folder, 'baseline-input.json'), JSON.stringify({ executions: generatedRecords(endpointCount, 1) }));
  await runQualityWorkflow(
    loadQualityToolConfig({
      QE_ENVIRONMENT: 'main',
      QE_INPUT_PATH: join(folder, 'baseline-input.json'),
      QE_OUTPUT_PATH: join(folder, 'baseline.json'),
      QE_REPORT_FORMATS: 'json',
    }),
    {
      fileSystem: nodeFileSystem,
    },
  );
  await writeFile(join(folder, 'input.json'), JSON.stringify({ executions: [...generatedRecords(endpointCount), ...extraRecords] }));
  await writeFile(
    join(folder, 'budgets.json'),
    JSON.stringify({
      maxFailureRate: 0.5,
      responseTimeMs: { p95: 5000 },
      endpoints: { 'POST /service-01/items': { responseTimeMs: { p95: 100 } } },
    }),
  );
  const jsonPath = join(folder, 'quality-summary.json');
  const { report } = await runQualityWorkflow(
    loadQualityToolConfig({
      QE_ENVIRONMENT: 'pull-request',
      QE_INPUT_PATH: join(folder, 'input.json'),
      QE_OUTPUT_PATH: jsonPath,
      QE_BUDGETS_PATH: join(folder, 'budgets.json'),
      QE_BASELINE_PATH: join(folder, 'baseline.json'),
    }),
    { fileSystem: nodeFileSystem },
  );
  return { folder, jsonPath, markdownPath: join(folder, 'quality-summary.md'), htmlPath: join(folder, 'quality-summary.html'), report };
}
