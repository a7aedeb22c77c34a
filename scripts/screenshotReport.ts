import { chromium } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadQualityToolConfig } from '../src/config/loadQualityToolConfig.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { runCli } from '../src/cli/runCli.js';

// The picture on the README's first screen (npm run screenshot): the HTML
// report of the bundled fictional fixture, as `npm start` writes it, in
// Debian's headless Chromium (Playwright's own browsers cannot be downloaded
// here), saved as docs/html-report.png.
const CHROMIUM_PATH = '/usr/bin/chromium';
const PICTURE_PATH = 'docs/html-report.png';

await runCli('quality-evidence screenshot', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'quality-evidence-screenshot-'));
  try {
    const config = loadQualityToolConfig({
      QE_ENVIRONMENT: 'local-example',
      QE_INPUT_PATH: 'fixtures/quality-executions.json',
      QE_OUTPUT_PATH: join(folder, 'quality-summary.json'),
      QE_REPORT_FORMATS: 'json,html',
    });
    await runQualityWorkflow(config, { fileSystem: nodeFileSystem });
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 600 }, deviceScaleFactor: 1 });
      await page.goto(pathToFileURL(join(folder, 'quality-summary.html')).href);
      await page.screenshot({ path: PICTURE_PATH, fullPage: true });
    } finally {
      await browser.close();
    }
    process.stdout.write(`${PICTURE_PATH} written\n`);
    return 0;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
