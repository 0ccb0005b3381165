/**
 * @module Where an application's copies go: the target environment
 * (RD-TARGET-LEVEL, RD-ONE-TARGET) and database, which decides the schema
 * (RD-TARGET-SCHEMA), noting for each whether a rule decided it, recommends
 * it, or the person must choose. No I/O.
 */
import type { ApplicationTarget, DraftPreferences } from './draft-shapes.ts';
import type { EvaluationNotes } from './draft-evaluation.ts';
import type { SourceTable } from './source-metadata.ts';
import {
  environmentAccepts,
  environmentOfDatabase,
  environmentsForAll,
  findTargetDatabase,
  TARGET_ENVIRONMENT_IDS,
  TARGET_ENVIRONMENTS,
  type Env,
  type TargetDatabase,
} from './target-environments.ts';

/** The chosen environment cannot hold some tables (rule RD-ONE-TARGET): keep it without them, or move everything to `moveTo`. */
export type TargetConflict = { current: Env; outside: string[]; inside: string[]; moveTo: Env | null };

/** The environment and target decided so far (null where the person must still choose), and a conflict if any. */
export type TargetDecision = { environment: Env | null; target: ApplicationTarget | null; conflict: TargetConflict | null };

/**
 * Decides the target of `tables` under `preferences`: the chosen environment
 * (or the one holding the chosen database), else the only environment that
 * accepts every table, else the person chooses (recommended: the least
 * protected that accepts every table). Then the chosen database, else the
 * environment's only database, else its first database as a recommendation.
 */
export function decideTarget(tables: readonly SourceTable[], preferences: DraftPreferences, notes: EvaluationNotes): TargetDecision {
  const chosen = chosenEnvironment(preferences, notes);
  if (chosen !== null) {
    const conflict = conflictOf(chosen, tables, notes);
    const database = decideDatabase(chosen, preferences.target_database, notes);
    return { environment: chosen, target: database && { environment: chosen, database: database.name, schema: database.schema }, conflict };
  }
  const fits = environmentsForAll(tables);
  const only = fits.length === 1 ? fits[0]! : null;
  if (only !== null) {
    notes.resolved.push({
      field: 'target.environment',
      value: only,
      source: 'rule',
      rule: 'RD-TARGET-LEVEL',
      reason: `the only environment that accepts every table (${TARGET_ENVIRONMENTS[only].acceptedDataLevels.join(', ')}).`,
    });
    const database = decideDatabase(only, preferences.target_database, notes);
    return { environment: only, target: database && { environment: only, database: database.name, schema: database.schema }, conflict: null };
  }
  if (fits.length > 1) {
    notes.recommendations.push({
      field: 'target.environment',
      value: fits[0]!,
      rule: 'RD-TARGET-LEVEL',
      reason: `the least protected environment that accepts every table; ${fits.join(', ')} all do.`,
    });
    notes.confirmations.push({
      field: 'preferences.target_environment',
      question: 'Which target environment should the copies go to?',
      choices: TARGET_ENVIRONMENT_IDS.filter((env) => fits.includes(env)).map((env) => ({ id: env, label: TARGET_ENVIRONMENTS[env].label })),
    });
  }
  return { environment: null, target: null, conflict: null };
}

function chosenEnvironment(preferences: DraftPreferences, notes: EvaluationNotes): Env | null {
  if (preferences.target_environment !== null) return preferences.target_environment;
  if (preferences.target_database === null) return null;
  const owner = environmentOfDatabase(preferences.target_database);
  if (owner === undefined) {
    // A database no environment has: said, never kept silently (the environment is then decided without it).
    const all = TARGET_ENVIRONMENT_IDS.flatMap((env) => TARGET_ENVIRONMENTS[env].databases.map((db) => `${db.name} (${env})`));
    notes.issues.push({
      code: 'INVALID_INPUT',
      field: 'preferences.target_database',
      rule: 'RD-TARGET-SCHEMA',
      recoverable: true,
      message: `${preferences.target_database} is not a target database: the databases are ${all.join(', ')}.`,
      next_action: 'Ask the person which database to use, then revise with target_database (or null to let the environment decide).',
    });
    return null;
  }
  notes.resolved.push({
    field: 'target.environment',
    value: owner,
    source: 'rule',
    rule: 'RD-TARGET-SCHEMA',
    reason: `the chosen database ${preferences.target_database} belongs to the ${owner} environment.`,
  });
  return owner;
}

function conflictOf(env: Env, tables: readonly SourceTable[], notes: EvaluationNotes): TargetConflict | null {
  const outside = tables.filter((table) => !environmentAccepts(env, table.dataLevel));
  if (outside.length === 0) return null;
  const moveTo = environmentsForAll(tables)[0] ?? null;
  const names = outside.map((table) => `${table.name} (${table.dataLevel})`).join(', ');
  const inside = tables.filter((table) => environmentAccepts(env, table.dataLevel)).map((table) => table.name);
  const options = [
    ...(inside.length > 0
      ? [
          `keep ${env} and leave ${outside.map((table) => table.name).join(', ')} for another application (take it out of source_tables: revise with remove_source_tables)`,
        ]
      : []),
    ...(moveTo ? [`move the whole application to ${moveTo}, which accepts every table (target_environment "${moveTo}")`] : []),
  ];
  notes.issues.push({
    code: 'CONFLICT',
    field: 'target_environment',
    rule: 'RD-ONE-TARGET',
    recoverable: true,
    message: `The ${env} environment cannot hold ${names}, and one application copies into one target database.`,
    next_action: options.length > 1 ? `Ask the person which they prefer: ${options.join('; or ')}.` : `Ask the person whether to ${options.join('')}.`,
  });
  return { current: env, outside: outside.map((table) => table.name), inside, moveTo };
}

function decideDatabase(env: Env, name: string | null, notes: EvaluationNotes): TargetDatabase | null {
  const { databases, label } = TARGET_ENVIRONMENTS[env];
  let database: TargetDatabase | undefined;
  if (name !== null) {
    database = findTargetDatabase(env, name);
    if (!database) {
      const known = environmentOfDatabase(name);
      notes.issues.push({
        code: 'INVALID_INPUT',
        field: 'preferences.target_database',
        rule: 'RD-TARGET-SCHEMA',
        recoverable: true,
        message: `${name} is not a database of the ${env} environment${known ? ` (it belongs to ${known})` : ''}.`,
        next_action: `Ask the person which database of the ${env} environment to use (listed in needs_confirmation), then revise with target_database.`,
      });
      notes.confirmations.push({
        field: 'preferences.target_database',
        question: `Which database of the ${label} should the copies go to?`,
        choices: databases.map((db) => ({ id: db.name, label: `${db.name} (schema ${db.schema})` })),
      });
      return null;
    }
  } else if (databases.length === 1) {
    database = databases[0]!;
    notes.resolved.push({
      field: 'target.database',
      value: database.name,
      source: 'rule',
      rule: 'RD-TARGET-SCHEMA',
      reason: `the only database of the ${env} environment.`,
    });
  } else {
    database = databases[0]!;
    notes.recommendations.push({
      field: 'target.database',
      value: database.name,
      rule: 'RD-TARGET-SCHEMA',
      reason: `the ${env} environment's default database; ${databases.map((db) => db.name).join(', ')} are offered. Change it with target_database.`,
    });
  }
  notes.resolved.push({
    field: 'target.schema',
    value: database.schema,
    source: 'rule',
    rule: 'RD-TARGET-SCHEMA',
    reason: `database ${database.name} decides the schema.`,
  });
  return database;
}
