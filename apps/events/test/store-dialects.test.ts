/**
 * Which databases the store tests run on: a PostgreSQL that does not answer
 * fails them, unless the person running them opts out by name
 * (AGENTREADY_SKIP_POSTGRES=1); it never drops out quietly.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeDialects } from './support/events-database.ts';

/** Nothing listens on port 1: connecting is refused at once. */
const UNREACHABLE = 'postgres://postgres:hunter2@127.0.0.1:1/test';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('storeDialects', () => {
  it('fails when PostgreSQL does not answer and nobody opted out, saying how to opt out', async () => {
    const refused = storeDialects('the events domain tests', { url: UNREACHABLE, env: {} });
    await expect(refused).rejects.toThrow(
      'PostgreSQL is not reachable at 127.0.0.1:1/test: the events domain tests need it. Start it, point TEST_DATABASE_URL at one, ' +
        'or set AGENTREADY_SKIP_POSTGRES=1 to run them on SQLite only.',
    );
    await expect(storeDialects('the events domain tests', { url: UNREACHABLE, env: { CI: '', AGENTREADY_SKIP_POSTGRES: '0' } })).rejects.toThrow(
      /AGENTREADY_SKIP_POSTGRES=1/,
    );
  });

  it('runs on SQLite only, with a warning naming the tests, when the person opts out by name', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const dialects = await storeDialects('the events domain tests', { url: UNREACHABLE, env: { AGENTREADY_SKIP_POSTGRES: '1' } });
    expect(dialects.map((dialect) => dialect.name)).toEqual(['sqlite']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(
      'PostgreSQL is not reachable at 127.0.0.1:1/test; AGENTREADY_SKIP_POSTGRES=1: the events domain tests run on SQLite only.',
    );
  });

  it('never shows the password of the URL it tried', async () => {
    const failure = await storeDialects('the events domain tests', { url: UNREACHABLE, env: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toContain('hunter2');
  });
});
