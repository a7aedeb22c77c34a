import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Lists the modules a Node process loads, each process of a run on its own
 * (Playwright's runner and its test workers alike): a `--import` module given
 * through NODE_OPTIONS registers a loader hook that notes every ES module
 * loaded, and on exit adds every CommonJS module in `require`'s cache (those a
 * CommonJS package requires do not pass the ES hooks on Node 20), and notes each
 * number formatted by locale (`Intl.NumberFormat`, `toLocaleString`: the first loads
 * ICU's locale data, some 20 ms) as `intl:` and the caller's place. For specs
 * that assert what a run does not load (tests/lazyLoading.spec.ts) and for
 * the start benchmark; never a time.
 */
export interface ModuleListing {
  /** The NODE_OPTIONS value that makes a process (and every process it starts with its environment) list its modules. */
  readonly nodeOptions: string;
  /**
   * The modules each process loaded, by process id: file paths (`node:` built-ins left out), each once; and an
   * `intl:<what> at <place>` line for each place that formatted a number by locale.
   */
  read(): Promise<Map<number, string[]>>;
  /** The modules each worker thread loaded (a thread's `--import` registers its own hook), one list per thread. */
  readWorkerThreads(): Promise<string[][]>;
}

const HOOK = `import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let file;
export function initialize(data) { file = data; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(file, fileURLToPath(url) + '\\n');
  return next(url, context);
}
`;

// A worker thread's list is <pid>.thread<id>.txt, beside its process's <pid>.txt.
const REGISTER = (hook: string, folder: string) => `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';
const file = ${JSON.stringify(folder)} + '/' + process.pid + (isMainThread ? '' : '.thread' + threadId) + '.txt';
register(${JSON.stringify(hook)}, { data: file });
const cache = createRequire(import.meta.url).cache;
const note = (line) => appendFileSync(file, line + '\\n');
process.on('exit', () => note(Object.keys(cache).join('\\n')));
const placeOf = () => (new Error().stack ?? '').split('\\n')[3]?.trim() ?? '';
const noted = (what) => ({ construct: (target, given) => (note('intl:' + what + ' ' + placeOf()), Reflect.construct(target, given)) });
Intl.NumberFormat = new Proxy(Intl.NumberFormat, noted('NumberFormat'));
const toLocaleString = Number.prototype.toLocaleString;
Number.prototype.toLocaleString = function (...given) { note('intl:toLocaleString ' + placeOf()); return toLocaleString.apply(this, given); };
`;

/** Prepares a listing in `folder` (made if missing), whose files it owns. */
export async function createModuleListing(folder: string): Promise<ModuleListing> {
  const lists = join(folder, 'lists');
  await mkdir(lists, { recursive: true });
  const hook = join(folder, 'hook.mjs');
  const register = join(folder, 'register.mjs');
  await writeFile(hook, HOOK);
  await writeFile(register, REGISTER(pathToFileURL(hook).href, lists));
  return {
    nodeOptions: `--import ${pathToFileURL(register).href}`,
    async read() {
      const byProcess = new Map<number, string[]>();
      for (const name of await readdir(lists))
        if (/^\d+\.txt$/.test(name)) byProcess.set(Number(name.replace(/\.txt$/, '')), await readList(join(lists, name)));
      return byProcess;
    },
    async readWorkerThreads() {
      const names = (await readdir(lists)).filter((name) => /\.thread\d+\.txt$/.test(name));
      return Promise.all(names.map((name) => readList(join(lists, name))));
    },
  };
}

async function readList(file: string): Promise<string[]> {
  const paths = (await readFile(file, 'utf8')).split('\n').filter((line) => /^(\/|intl:)/.test(line));
  return [...new Set(paths)];
}

/** The packages (`ajv`, `@opentelemetry/sdk-metrics`) whose files are among `paths`: the last node_modules folder of each path. */
export function packagesIn(paths: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match !== null) names.add(match[1]!);
  }
  return names;
}
