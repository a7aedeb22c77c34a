import { looksOpaque } from '../labels/learnedTemplates.js';
import type { StatusSet } from '../records/statusList.js';

/**
 * Expected statuses written for a template (`GET /usuarios/:id`) apply to
 * the calls it stands for before the end of the run has learned it:
 * whether a call failed is decided as it is counted, and a template that
 * learning finds (learnedTemplates.ts) is only known at the end. A key
 * whose path has `:name` segments matches a label segment by segment: a
 * literal segment as written, a `:name` one an id (`:id`, made by the shape
 * rules) or a value that learning would take for one ({@link looksOpaque}),
 * never a word (`/usuarios/me` keeps its own rule). Keys are tried in the
 * order they were written; undefined when no key is a template.
 */
export function expectedStatusesByTemplate(
  byEndpoint: ReadonlyMap<string, StatusSet>,
): ((endpoint: string) => StatusSet | undefined) | undefined {
  const templates = [...byEndpoint]
    .filter(([key]) => key.includes('/:'))
    .map(([key, statuses]) => {
      const { method, segments } = split(key);
      return { method, segments, statuses };
    });
  if (templates.length === 0) return undefined;
  return (endpoint) => {
    const { method, segments } = split(endpoint);
    const template = templates.find(
      (candidate) =>
        candidate.method === method &&
        candidate.segments.length === segments.length &&
        candidate.segments.every((segment, index) => {
          const value = segments[index]!;
          return segment.startsWith(':') ? value === ':id' || looksOpaque(value) : value === segment;
        }),
    );
    return template?.statuses;
  };
}

function split(label: string): { readonly method: string; readonly segments: readonly string[] } {
  const space = label.indexOf(' ');
  const path = label.slice(space + 1);
  return { method: label.slice(0, space), segments: path === '/' ? [] : path.slice(1).split('/') };
}
