import * as z from 'zod';
import type { EnvironmentRecord } from '../config/settingsSources.js';
import { presentValue } from '../config/settingsSources.js';

/**
 * Where a pull-request comment goes, read from CI's variables and GitHub's
 * event payload: which platform, which repository and which pull request (or
 * merge request), and where the run's artifacts are. Pure: the command reads
 * the environment and the payload file and hands them in. No value read
 * here is ever put in a message; the token is not read here at all.
 */

/** The platforms a comment is posted to. */
export const COMMENT_PLATFORMS = ['github', 'gitlab'] as const;
export type CommentPlatform = (typeof COMMENT_PLATFORMS)[number];

/** A GitHub pull request's conversation: its issue comments. */
export interface GitHubTarget {
  readonly platform: 'github';
  /** GITHUB_API_URL without a trailing slash; default https://api.github.com. */
  readonly apiUrl: string;
  /** GITHUB_REPOSITORY: `owner/name`. */
  readonly owner: string;
  readonly repository: string;
  readonly pullRequest: number;
  /**
   * Only when a workflow_run job was given the number (--pull-request, from an artifact the tested code wrote):
   * the commit the tests ran on. The pull request's head must be that commit, or nothing is posted.
   */
  readonly expectedHeadSha?: string | undefined;
}

/** A GitLab merge request's notes. */
export interface GitLabTarget {
  readonly platform: 'gitlab';
  /** CI_API_V4_URL without a trailing slash. */
  readonly apiUrl: string;
  /** CI_PROJECT_ID: a number, or a path, URL-encoded where it is used. */
  readonly projectId: string;
  /** CI_MERGE_REQUEST_IID. */
  readonly mergeRequest: number;
}

export type CommentTarget = GitHubTarget | GitLabTarget;

/** The variables a target is read from. */
const GITHUB_TOKEN = 'GITHUB_TOKEN';
const GITLAB_TOKEN = 'GITLAB_TOKEN';

/** What GitHub's event payload says that a comment needs; everything else is ignored. */
const eventSchema = z.looseObject({
  pull_request: z.looseObject({ number: z.int().positive() }).optional().catch(undefined),
  issue: z.looseObject({ number: z.int().positive(), pull_request: z.unknown().optional() }).optional().catch(undefined),
  workflow_run: z
    .looseObject({
      id: z.int().positive().optional().catch(undefined),
      head_sha: z
        .string()
        .regex(/^[0-9a-f]{40,64}$/i)
        .optional()
        .catch(undefined),
      pull_requests: z
        .array(z.looseObject({ number: z.int().positive() }))
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** GitHub's event payload, as far as a comment reads it. */
export type GitHubEvent = z.infer<typeof eventSchema>;

/** The payload's text, read as an event; undefined when it is no JSON object (the caller says so where it matters). */
export function parseGitHubEvent(text: string): GitHubEvent | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = eventSchema.safeParse(document);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Which platform a run is on: GitHub when GITHUB_REPOSITORY is set (GitHub
 * Actions sets it in every job), else GitLab when CI_PROJECT_ID is set
 * (GitLab CI sets it in every job); neither elsewhere.
 */
export function commentPlatformOf(env: EnvironmentRecord): CommentPlatform | undefined {
  if (presentValue(env['GITHUB_REPOSITORY']) !== undefined) return 'github';
  if (presentValue(env['CI_PROJECT_ID']) !== undefined) return 'gitlab';
  return undefined;
}

/** The variable the platform's token is read from. */
export function tokenVariableOf(platform: CommentPlatform): string {
  return platform === 'github' ? GITHUB_TOKEN : GITLAB_TOKEN;
}

/**
 * The pull request or merge request to comment on, or what is missing, in
 * words that name variables and never their values. On GitHub, the number
 * is `--pull-request`, else the event's: `pull_request.number` (pull_request
 * and pull_request_target events), `issue.number` (an issue_comment on a
 * pull request), or the first of `workflow_run.pull_requests` (empty for a
 * pull request from a fork: pass the number on as an artifact).
 */
export function commentTargetOf(
  env: EnvironmentRecord,
  event: GitHubEvent | undefined,
  pullRequest: number | undefined,
): { readonly target: CommentTarget } | { readonly problem: string } {
  const platform = commentPlatformOf(env);
  if (platform === undefined)
    return {
      problem:
        'neither GitHub Actions (GITHUB_REPOSITORY) nor GitLab CI (CI_PROJECT_ID) is in the environment; --post works inside their jobs',
    };
  if (platform === 'gitlab') {
    const apiUrl = httpUrl(env['CI_API_V4_URL']);
    if (apiUrl === undefined) return { problem: 'CI_API_V4_URL is not an http(s) URL' };
    const mergeRequest = positiveInteger(env['CI_MERGE_REQUEST_IID']);
    if (mergeRequest === undefined)
      return {
        problem:
          'CI_MERGE_REQUEST_IID is not set: the job is not a merge-request pipeline (give it `rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`)',
      };
    return { target: { platform, apiUrl, projectId: presentValue(env['CI_PROJECT_ID'])!, mergeRequest } };
  }
  const apiUrl = httpUrl(env['GITHUB_API_URL'] ?? 'https://api.github.com');
  if (apiUrl === undefined) return { problem: 'GITHUB_API_URL is not an http(s) URL' };
  const slug = /^([\w.-]+)\/([\w.-]+)$/.exec(presentValue(env['GITHUB_REPOSITORY']) ?? '');
  if (slug === null) return { problem: 'GITHUB_REPOSITORY is not owner/name' };
  const [, owner = '', repository = ''] = slug;
  const fromEvent = event?.pull_request?.number ?? event?.issue?.number ?? event?.workflow_run?.pull_requests?.[0]?.number;
  const number = pullRequest ?? fromEvent;
  if (number === undefined)
    return {
      problem:
        presentValue(env['GITHUB_EVENT_PATH']) === undefined
          ? 'no pull request: GITHUB_EVENT_PATH is not set, so no event names one; run on pull_request or workflow_run, or pass --pull-request N'
          : 'no pull request: the event payload (GITHUB_EVENT_PATH) names none; run on pull_request or workflow_run, or pass --pull-request N',
    };
  // A number handed over by the tested code (an artifact) is trusted only for the commit the tests ran on.
  const headSha = event?.workflow_run?.head_sha;
  const expectedHeadSha = pullRequest !== undefined && pullRequest !== fromEvent ? headSha : undefined;
  return { target: { platform, apiUrl, owner, repository, pullRequest: number, expectedHeadSha } };
}

/**
 * The page of the run whose artifacts hold the report: on GitHub
 * `${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${id}`, the id
 * being the tested run's in a workflow_run job (the event's
 * `workflow_run.id`), else GITHUB_RUN_ID; on GitLab, CI_JOB_URL. Undefined
 * where CI does not say, or a value is not what it should be (the link is
 * written into Markdown).
 */
export function artifactsUrlOf(env: EnvironmentRecord, event: GitHubEvent | undefined): string | undefined {
  const repository = presentValue(env['GITHUB_REPOSITORY']);
  if (repository !== undefined) {
    const server = httpUrl(env['GITHUB_SERVER_URL'] ?? 'https://github.com');
    const runId = event?.workflow_run?.id ?? positiveInteger(env['GITHUB_RUN_ID']);
    if (server === undefined || runId === undefined || !/^[\w.-]+\/[\w.-]+$/.test(repository)) return undefined;
    return `${server}/${repository}/actions/runs/${runId}`;
  }
  return httpUrl(env['CI_JOB_URL']);
}

/** An http(s) URL safe to write into a Markdown link and to send requests to, without its trailing slashes; undefined otherwise. */
function httpUrl(text: string | undefined): string | undefined {
  const value = presentValue(text);
  if (value === undefined || !/^https?:\/\/[^\s()<>[\]"'`]+$/i.test(value)) return undefined;
  try {
    new URL(value);
  } catch {
    return undefined;
  }
  return value.replace(/\/+$/, '');
}

/** A whole number from 1 to 2^53 - 1 written in digits; undefined otherwise. */
export function positiveInteger(text: string | undefined): number | undefined {
  const value = presentValue(text);
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}
