/**
 * @module Where the GiftGenius database lives by default:
 * `data/giftgenius.sqlite` at the repository root, whatever folder a command
 * was started from.
 */
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (four folders above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The default `DATABASE_URL`; relative SQLite paths resolve against {@link REPO_ROOT}. */
export const DEFAULT_DATABASE_URL = 'file:data/giftgenius.sqlite';
