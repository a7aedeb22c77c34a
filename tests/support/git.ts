import { realpathSync } from 'node:fs';
import { repositoryRoot } from './runProgram.js';

/**
 * The variables every git command of the suite runs with, beside its
 * childEnvironment: an identity of its own (`git stash create` writes
 * commits, and a fresh machine may have no `user.email`) and none of the
 * machine's configuration (neither ~/.gitconfig, whatever HOME is, nor
 * /etc/gitconfig), so that a global ignore file, hook path or signing rule
 * changes nothing either. The one setting taken in its place trusts this
 * repository, as a machine whose checkout another user owns would in its
 * own configuration (`safe.directory` is read only from a protected scope:
 * the environment is one).
 */
export const GIT_ENVIRONMENT: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: 'quality-evidence suite',
  GIT_AUTHOR_EMAIL: 'suite@quality-evidence.invalid',
  GIT_COMMITTER_NAME: 'quality-evidence suite',
  GIT_COMMITTER_EMAIL: 'suite@quality-evidence.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'safe.directory',
  GIT_CONFIG_VALUE_0: realpathSync(repositoryRoot),
  GIT_TERMINAL_PROMPT: '0',
};
