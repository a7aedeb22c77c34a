// The helpers (SPEC 4.2): re-exports only. The option checks in options.ts stay internal.
export * from './checkObservation.js';
export * from './clock.js';
export * from './helperErrors.js';
export * from './pollUntil.js';
export * from './retryBounded.js';
export * from './summariseChecks.js';
