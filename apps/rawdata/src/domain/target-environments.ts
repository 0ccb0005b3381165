/**
 * @module The target environments a copy can go to (rule RD-TARGET-LEVEL:
 * which data levels each accepts; rule RD-TARGET-SCHEMA: each database has
 * exactly one schema, so the database decides the schema; rule
 * RD-HOUSEKEEPING-SKIP: the restricted environment keeps everything, without
 * housekeeping). No I/O.
 */
import type { DataLevel, SourceTable } from './source-metadata.ts';

/** The environments, in the order a page lists them. */
export const TARGET_ENVIRONMENT_IDS = ['standard', 'restricted', 'sandbox'] as const;
/** One of {@link TARGET_ENVIRONMENT_IDS}. */
export type Env = (typeof TARGET_ENVIRONMENT_IDS)[number];

/** A database of an environment with the one schema copies land in. */
export type TargetDatabase = { name: string; schema: string };

/** What an environment accepts and offers. */
export type TargetEnvironment = {
  id: Env;
  label: string;
  acceptedDataLevels: readonly DataLevel[];
  /** The first is the environment's default database. */
  databases: readonly TargetDatabase[];
  skipsHousekeeping: boolean;
};

/** The environments (source: Data Platform Copy Policy v3, sections 1.2, 2.1 and 3.3). */
export const TARGET_ENVIRONMENTS: Readonly<Record<Env, TargetEnvironment>> = {
  standard: {
    id: 'standard',
    label: 'Standard project environment',
    acceptedDataLevels: ['public', 'internal', 'classified'],
    databases: [
      { name: 'proj_analytics', schema: 'rawdata_copy' },
      { name: 'proj_reporting', schema: 'report_src' },
    ],
    skipsHousekeeping: false,
  },
  restricted: {
    id: 'restricted',
    label: 'Restricted secure environment',
    acceptedDataLevels: ['public', 'internal', 'classified', 'restricted'],
    databases: [{ name: 'secure_vault', schema: 'restricted_copy' }],
    skipsHousekeeping: true,
  },
  sandbox: {
    id: 'sandbox',
    label: 'Analyst sandbox',
    acceptedDataLevels: ['public', 'internal'],
    databases: [
      { name: 'sandbox_lab', schema: 'lab' },
      { name: 'sandbox_scratch', schema: 'scratch' },
    ],
    skipsHousekeeping: false,
  },
};

/** The environments from least to most protected: a move goes to the first one that accepts every table. */
export const ENVIRONMENTS_LEAST_PROTECTED_FIRST: readonly Env[] = ['sandbox', 'standard', 'restricted'];

/** Whether `env` accepts data of `level` (rule RD-TARGET-LEVEL). */
export function environmentAccepts(env: Env, level: DataLevel): boolean {
  return TARGET_ENVIRONMENTS[env].acceptedDataLevels.includes(level);
}

/** The environments that accept a table of `level`, in {@link TARGET_ENVIRONMENT_IDS} order (rule RD-TARGET-LEVEL). */
export function allowedTargets(level: DataLevel): Env[] {
  return TARGET_ENVIRONMENT_IDS.filter((env) => environmentAccepts(env, level));
}

/** The environments that accept every one of `tables`, least protected first (rules RD-TARGET-LEVEL, RD-ONE-TARGET). */
export function environmentsForAll(tables: readonly SourceTable[]): Env[] {
  return ENVIRONMENTS_LEAST_PROTECTED_FIRST.filter((env) => tables.every((table) => environmentAccepts(env, table.dataLevel)));
}

/** The database `name` of `env`, or undefined when the environment has no such database. */
export function findTargetDatabase(env: Env, name: string): TargetDatabase | undefined {
  return TARGET_ENVIRONMENTS[env].databases.find((database) => database.name === name);
}

/** The environment holding database `name`, or undefined for an unknown database. */
export function environmentOfDatabase(name: string): Env | undefined {
  return TARGET_ENVIRONMENT_IDS.find((env) => findTargetDatabase(env, name) !== undefined);
}
