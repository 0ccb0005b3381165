/**
 * @module Where the events database lives by default: `data/events.sqlite` at
 * the repository root, whatever folder a command was started from (npm's
 * `-w apps/events` starts in the workspace folder).
 */
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (three folders above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The default `DATABASE_URL`; relative SQLite paths resolve against {@link REPO_ROOT}. */
export const DEFAULT_DATABASE_URL = 'file:data/events.sqlite';
