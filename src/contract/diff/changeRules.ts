import type { ChangeLevel } from './contractChange.js';

/**
 * The rules `diffContracts` classifies changes by, each with its level: a
 * stable id (docs/contract-diff.md gives each an example). One level per
 * rule: what a rule finds breaks a client always, may break it, or cannot.
 */
export const CHANGE_RULES = {
  'operation-removed': 'breaking',
  'operation-added': 'info',
  'path-parameter-renamed': 'info',
  'request-parameter-added-required': 'breaking',
  'request-parameter-added-optional': 'info',
  'request-parameter-made-required': 'breaking',
  'request-parameter-removed': 'warning',
  'request-body-added-required': 'breaking',
  'request-body-added-optional': 'info',
  'request-body-made-required': 'breaking',
  'request-body-removed': 'warning',
  'request-media-type-removed': 'breaking',
  'request-property-added-required': 'breaking',
  'request-property-added-optional': 'info',
  'request-property-made-required': 'breaking',
  'request-property-removed': 'warning',
  'request-enum-value-removed': 'breaking',
  'request-branch-removed': 'breaking',
  'bound-tightened': 'breaking',
  'type-changed': 'breaking',
  'format-changed': 'breaking',
  'response-status-removed': 'breaking',
  'response-status-added': 'warning',
  'response-media-type-removed': 'breaking',
  'response-property-removed': 'breaking',
  'response-property-made-optional': 'warning',
  'response-property-made-nullable': 'warning',
  'response-enum-value-added': 'warning',
  'response-branch-added': 'warning',
} as const satisfies Readonly<Record<string, ChangeLevel>>;

export type ChangeRule = keyof typeof CHANGE_RULES;

/** Every rule id, in the table's order. */
export const CHANGE_RULE_IDS = Object.keys(CHANGE_RULES) as readonly ChangeRule[];
