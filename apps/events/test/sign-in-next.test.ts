/**
 * `?next=` on /signin and /signup sends the person on after they sign in: it
 * must only ever be a path of this site, also after the browser collapses its
 * dot segments (`/./`, `/a/../`, `%2e`), or a link from another site would land a
 * freshly signed-in person on a page of its choosing (an open redirect).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createSqliteFixture, createTestClock, type DatabaseFixture } from './support/events-database.ts';
import { scriptBlocks, tagsNamed } from './support/served-html.ts';

/** Values of `next` that name another host once a browser normalizes them, as a person reported them. */
const OFF_SITE = [
  '/.//127.0.0.1:3101/pwned',
  '/a/..//evil.example/x',
  '/%2e//evil.example',
  '/./\\evil.example',
  '//evil.example',
  '/\\evil.example',
  'https://evil.example/',
];

describe('?next= on the sign-in and sign-up pages', () => {
  let fixture: DatabaseFixture;
  let app: EventsApp;
  beforeAll(async () => {
    fixture = await createSqliteFixture();
    app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => fixture.close());

  async function signInPage(path: string) {
    const html = await (await app.request(path)).text();
    const data = JSON.parse(scriptBlocks(html, 'application/json')[0] ?? 'null') as { next: string };
    return { next: data.next, links: tagsNamed(html, 'a').map((link) => link['href'] ?? '') };
  }

  it.each(OFF_SITE.flatMap((next) => ['/signin', '/signup'].map((page) => [page, next] as const)))(
    '%s sends %s to the home page instead',
    async (page, next) => {
      const shown = await signInPage(`${page}?next=${encodeURIComponent(next)}`);
      expect(shown.next).toBe('/');
      // The link to the other page carries the same, safe, next.
      const other = page === '/signin' ? '/signup' : '/signin';
      expect(shown.links.filter((href) => href.startsWith(`${other}?`))).toEqual([`${other}?next=%2F`]);
    },
  );

  it('keeps a path of this site, with its query', async () => {
    expect((await signInPage(`/signin?next=${encodeURIComponent('/events/evt-webmcp-intro/register?from=mail')}`)).next).toBe(
      '/events/evt-webmcp-intro/register?from=mail',
    );
    expect((await signInPage(`/signin?next=${encodeURIComponent('/events/./evt-webmcp-intro')}`)).next).toBe('/events/evt-webmcp-intro');
  });
});
