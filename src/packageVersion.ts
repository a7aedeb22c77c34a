/** This package's version, as its package.json gives it (tests/package.spec.ts holds the two equal): the exports name their producer by it. */
export const PACKAGE_VERSION = '0.1.0';
