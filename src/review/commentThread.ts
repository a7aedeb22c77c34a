/**
 * A pull request's (or merge request's) comments, as posting needs them:
 * find ours, create one, update one. Each platform gives one
 * (./githubComments.ts, ./gitlabNotes.ts); ./postComment.ts decides which
 * call to make.
 */
export interface CommentThread {
  /** What it is, for messages: `pull request #12`, `merge request !7`. */
  readonly where: string;
  /** Refuses a thread the comment must not go to (a pull request not at the tested commit); resolves when it may. */
  check(): Promise<void>;
  /** The first comment, across every page, whose body `isOurs`; undefined when none is. */
  find(isOurs: (body: string) => boolean): Promise<{ readonly id: string; readonly url?: string | undefined } | undefined>;
  create(body: string): Promise<{ readonly url?: string | undefined }>;
  update(id: string, body: string): Promise<{ readonly url?: string | undefined }>;
}
