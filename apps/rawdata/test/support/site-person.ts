/**
 * @module A person using the Rawdata site over HTTP, as a browser would
 * without its script: signs in with the form, keeps the session cookie,
 * reads each page's HTML (node-html-parser) and posts its forms with the
 * page's CSRF token. For tests of what a person does on the pages.
 */
import { parse, type HTMLElement } from 'node-html-parser';

/** A signed-in person on one site. */
export type SitePerson = {
  /** GET a page: its status and parsed HTML. */
  get(path: string): Promise<{ status: number; page: HTMLElement; html: string }>;
  /** POST a form (urlencoded) with the session's CSRF token added; redirects are not followed. */
  post(path: string, fields: Record<string, string | string[]>): Promise<{ status: number; location: string | null; page: HTMLElement; html: string }>;
  /** Creates an access token on /connect and answers it (shown once on the page). */
  createAccessToken(scope: 'read' | 'prepare' | 'submit', label?: string): Promise<string>;
};

/**
 * Signs in on `/signin` with the form.
 *
 * @throws Error when the site does not sign the person in (303 with a cookie).
 */
export async function signInPerson(siteUrl: string, credentials: { email: string; password: string }): Promise<SitePerson> {
  const signIn = await fetch(`${siteUrl}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: siteUrl },
    body: new URLSearchParams({ email: credentials.email, password: credentials.password, next: '/applications' }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((line) => line.startsWith('ard_session='))
    ?.split(';')[0];
  if (signIn.status !== 303 || cookie === undefined) throw new Error(`Sign-in answered ${signIn.status}`);
  let csrfToken = '';
  const get: SitePerson['get'] = async (path) => {
    const response = await fetch(`${siteUrl}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
    const html = await response.text();
    const page = parse(html);
    csrfToken = page.querySelector('input[name=csrf_token]')?.getAttribute('value') ?? csrfToken;
    return { status: response.status, page, html };
  };
  const post: SitePerson['post'] = async (path, fields) => {
    if (csrfToken === '') await get('/applications');
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries({ csrf_token: csrfToken, ...fields })) for (const one of [value].flat()) body.append(name, one);
    const response = await fetch(`${siteUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: siteUrl },
      body,
    });
    const html = await response.text();
    return { status: response.status, location: response.headers.get('Location'), page: parse(html), html };
  };
  return {
    get,
    post,
    async createAccessToken(scope, label = `test client ${scope}`) {
      await get('/connect');
      const created = await post('/connect/tokens', { label, scope });
      const token = created.page.querySelector('[data-testid=new-token]')?.text.trim();
      if (created.status !== 200 || !token) throw new Error(`Token creation answered ${created.status}`);
      return token;
    },
  };
}

/** The text of the element marked `data-testid=testId`, white space folded ('' when there is none). */
export function testIdText(page: HTMLElement, testId: string): string {
  return page.querySelector(`[data-testid=${testId}]`)?.text.replace(/\s+/g, ' ').trim() ?? '';
}

/** The body rows of the table marked `data-testid=testId`, each as its cells' text. */
export function tableRows(page: HTMLElement, testId: string): string[][] {
  return page
    .querySelectorAll(`[data-testid=${testId}] tbody tr`)
    .map((row) => row.querySelectorAll('td, th').map((cell) => cell.text.replace(/\s+/g, ' ').trim()));
}
