import { test } from '@playwright/test';
import { existsSync } from 'node:fs';

/** Debian's Chromium, which `.ci/run` installs; Playwright's own browsers cannot be downloaded here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags that keep the browser from reaching out on its own (updates, sync, first-run pages). */
export const QUIET_CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/**
 * Skips the calling test, saying how to install the browser, when Debian's
 * Chromium is missing; under `CI=true` a missing browser fails the test
 * instead, so CI can never pass by skipping the browser specs.
 */
export function requireChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const how = `needs Debian's chromium at ${CHROMIUM_PATH}: sudo apt-get update && sudo apt-get install -y chromium (.ci/run installs it)`;
  if (process.env['CI'] === 'true') throw new Error(`CI=true and ${how}`);
  test.skip(true, how);
}
