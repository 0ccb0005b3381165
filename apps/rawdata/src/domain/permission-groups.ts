/**
 * @module The permission groups an application may grant access to the copy
 * (rule RD-PERMISSION-TARGET: a group cleared below a table's data level
 * cannot be granted that table). Ids are the platform's public group handles
 * (`grp-…`), shown to people and agents. No I/O.
 */
import type { DataLevel } from './source-metadata.ts';

/** A permission group and the highest data level its members are cleared for. */
export type PermissionGroup = { id: string; label: string; clearance: DataLevel };

/** The groups (source: Data Access Control Policy v4, section 2.2), sorted by id. */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = [
  { id: 'grp-card-insight', label: 'Card insight analysts', clearance: 'classified' },
  { id: 'grp-compliance-review', label: 'Compliance reviewers', clearance: 'restricted' },
  { id: 'grp-credit-modelling', label: 'Credit risk modellers', clearance: 'restricted' },
  { id: 'grp-finance-reporting', label: 'Finance reporting', clearance: 'classified' },
  { id: 'grp-marketing-analytics', label: 'Marketing analytics', clearance: 'internal' },
  { id: 'grp-open-data', label: 'Open data readers', clearance: 'public' },
  { id: 'grp-operations-dashboard', label: 'Operations dashboard viewers', clearance: 'internal' },
  { id: 'grp-treasury-desk', label: 'Treasury desk analysts', clearance: 'classified' },
];

/** The group with id `id`, or undefined. */
export function findPermissionGroup(id: string): PermissionGroup | undefined {
  return PERMISSION_GROUPS.find((group) => group.id === id);
}
