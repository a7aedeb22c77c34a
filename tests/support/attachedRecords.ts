import { readFile } from 'node:fs/promises';

interface JsonSuite {
  suites?: JsonSuite[];
  specs?: { title: string; tests: { results: { attachments: { contentType: string; body?: string }[] }[] }[] }[];
}

/** Every execution record attached in a run, with the title of the test that attached it, from Playwright's JSON report. */
export async function attachedRecords(jsonReport: string): Promise<{ readonly title: string; readonly record: Record<string, unknown> }[]> {
  const report = JSON.parse(await readFile(jsonReport, 'utf8')) as { suites: JsonSuite[] };
  const specs = (suites: readonly JsonSuite[]): NonNullable<JsonSuite['specs']> =>
    suites.flatMap((suite) => [...(suite.specs ?? []), ...specs(suite.suites ?? [])]);
  return specs(report.suites).flatMap((spec) =>
    spec.tests
      .flatMap((testEntry) => testEntry.results)
      .flatMap((result) => result.attachments)
      .filter((attachment) => attachment.contentType === 'application/vnd.quality-evidence.execution+json')
      .map((attachment) => ({
        title: spec.title,
        record: JSON.parse(Buffer.from(attachment.body ?? '', 'base64').toString('utf8')) as Record<string, unknown>,
      })),
  );
}

/** The execution records attached to one test, from Playwright's JSON report. */
export async function recordsAttachedTo(jsonReport: string, title: string): Promise<Record<string, unknown>[]> {
  return (await attachedRecords(jsonReport)).filter((attached) => attached.title === title).map(({ record }) => record);
}
