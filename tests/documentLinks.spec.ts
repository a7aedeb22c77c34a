import { expect, test } from './support/test.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { headingAnchors, linksOf, readDocuments } from './support/documents.js';
import { repositoryRoot } from './support/runProgram.js';

// The README is a user's first screen and docs/ holds the rest (CONTRIBUTING.md
// the developer set-up): these specs keep the links between them whole.
const documents = readDocuments();

test('every link between the README, CONTRIBUTING.md and docs/ leads to a file that exists, and every #anchor to a heading of it', () => {
  const broken: string[] = [];
  for (const document of documents) {
    for (const { target, line } of linksOf(document.text)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? document.path : normalize(join(dirname(document.path), path));
      const where = `${document.path}:${line}: ${target}`;
      if (file.startsWith('..') || !existsSync(join(repositoryRoot, file))) broken.push(`${where}: no file ${file}`);
      else if (
        anchor !== undefined &&
        !(file.endsWith('.md') && headingAnchors(readFileSync(join(repositoryRoot, file), 'utf8')).has(anchor))
      )
        broken.push(`${where}: no heading #${anchor} in ${file}`);
    }
  }
  expect(broken).toEqual([]);
});

test('every page of docs/ is linked from the README', () => {
  const linked = new Set(linksOf(documents[0]?.text ?? '').map(({ target }) => target.split('#')[0]));
  const pages = documents.map(({ path }) => path).filter((path) => path.startsWith('docs/'));
  expect(pages.length).toBeGreaterThan(10);
  expect(pages.filter((page) => !linked.has(page))).toEqual([]);
});

test(`the README's first 90 lines hold what a user came for: the install, the three Playwright steps with the openapi \
and apiCalls options, the workflow and the links into docs/; the whole stays under 400 lines`, () => {
  const readme = documents[0]?.text ?? '';
  const firstScreen = readme.split('\n').slice(0, 90).join('\n');
  expect(readme.split('\n').length).toBeLessThan(400);
  for (const part of [
    '## Install',
    'npm install --save-dev ./quality-evidence-0.1.0.tgz',
    'npm install --save-dev git+https://github.com/<owner>/quality-evidence.git#v0.1.0',
    'npm install --save-dev github:<owner>/quality-evidence#v0.1.0',
    "['quality-evidence/reporter', { outputFile: 'out/quality-summary.json' }]",
    "import { test, expect } from 'quality-evidence/test';",
    "openapi: 'openapi.yaml'",
    'the path is relative to the config',
    'A document served only as Swagger UI\nmust be saved to a file first',
    '`apiCalls` option',
    'report written to out/quality-summary.json (also .md, .html)',
    'uses: actions/upload-artifact@v4',
    'npx quality-evidence check out/quality-summary.json --budgets quality-budgets.json',
    ...documents.map(({ path }) => path).filter((path) => path.startsWith('docs/')),
  ]) {
    expect(firstScreen, part).toContain(part);
  }
});

test(`the reporter's page shows the openapi and apiCalls options in a config, says what a relative path is relative to, \
and that a Swagger UI document is saved to a file first`, () => {
  const page = documents.find(({ path }) => path === 'docs/reporter.md')?.text ?? '';
  expect(page).toContain(
    "['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', openapi: 'openapi.yaml', apiCalls: { include: ['**/api/**'] } }]",
  );
  expect(page).toContain('**Relative paths.** A path an option gives (`outputFile`, `openapi`,');
  expect(page).toContain('**A document served only as Swagger UI** must be saved to a file first');
});
