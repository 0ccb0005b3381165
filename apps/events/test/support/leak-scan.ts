/**
 * @module The leak scan of what a site sent: no e-mail address, access
 * token, session cookie, stack trace, SQL or database name in any answer
 * (docs/architecture.md, "The envelope": messages are short safe sentences).
 */
import { expect } from 'vitest';

/**
 * Asserts that `sent` (everything a client received, joined) carries none of
 * what must stay on the server; fails naming the first kind found. An empty
 * `sent` fails too, so a scan of nothing cannot pass.
 */
export function expectNothingLeaked(sent: string): void {
  expect(sent.length, 'the scan has something to read').toBeGreaterThan(0);
  expect(sent).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  expect(sent).not.toContain('are_pat_');
  expect(sent).not.toMatch(/ar_session/);
  expect(sent).not.toMatch(/\bat .+\.(ts|js|mjs):\d+/);
  expect(sent).not.toMatch(/\b(select|insert into|update|delete from)\b[^"]*\b(from|values|set|where)\b/i);
  expect(sent).not.toMatch(/sqlite|SQLITE_|postgres/i);
}
