// The Playwright reporter (`quality-evidence/reporter`) arrives with its own issue.
export {};
