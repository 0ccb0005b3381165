/**
 * @agentready/identity/pages as a person's browser receives it: the document around a
 * page (title, stylesheet, scripts, the site's name and navigation, the
 * content in main), the sign-in form with the problem of a failed attempt,
 * and the sign-out form; whatever a page puts in is escaped.
 */
import { parse } from 'node-html-parser';
import { h } from 'preact';
import { describe, expect, it } from 'vitest';
import { renderSiteDocument, SignInForm, SignOutForm } from '../src/pages/index.ts';

function document(options: { title?: string; scripts?: string[]; children?: ReturnType<typeof h> } = {}) {
  const html = renderSiteDocument({
    siteName: 'Notes',
    title: options.title ?? 'Sign in',
    stylesheet: '/assets/notes.css',
    ...(options.scripts && { scripts: options.scripts }),
    navigation: h('nav', { 'aria-label': 'Site' }, h(SignOutForm, { csrfToken: 'csrf-123', buttonClass: 'link-button' })),
    children: options.children ?? h('p', null, 'Hello'),
  });
  return { html, root: parse(html) };
}

describe('renderSiteDocument', () => {
  it('puts the page in the site’s document: title, stylesheet, scripts in order, the name linking home, the navigation, main', () => {
    const { html, root } = document({ scripts: ['/assets/a.js', '/assets/b.js'] });
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(root.querySelector('title')?.text).toBe('Sign in · Notes');
    expect(root.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe('/assets/notes.css');
    expect(root.querySelectorAll('script').map((script) => [script.getAttribute('src'), script.getAttribute('type'), script.hasAttribute('defer')])).toEqual([
      ['/assets/a.js', 'module', true],
      ['/assets/b.js', 'module', true],
    ]);
    expect(root.querySelector('header a.site-name')?.getAttribute('href')).toBe('/');
    expect(root.querySelector('header a.site-name')?.text).toBe('Notes');
    expect(root.querySelector('header nav[aria-label=Site]')).not.toBeNull();
    expect(root.querySelector('main#main')?.innerHTML).toBe('<p>Hello</p>');
  });

  it('loads no script unless told, and escapes what a page puts in', () => {
    const { html, root } = document({ title: '<script>alert(1)</script>', children: h('p', null, '<img src=x onerror=alert(1)>') });
    expect(root.querySelectorAll('script')).toHaveLength(0);
    expect(root.querySelector('title')?.text).toBe('<script>alert(1)</script> · Notes');
    expect(root.querySelector('main img')).toBeNull();
    expect(html).not.toContain('<img');
  });
});

describe('SignInForm and SignOutForm', () => {
  it('posts e-mail, password and the page to go on to to /signin; a failed attempt shows its problem and the e-mail typed', () => {
    const first = parse(
      renderSiteDocument({ siteName: 'Notes', title: 'Sign in', stylesheet: '/s.css', navigation: null, children: h(SignInForm, { next: '/account' }) }),
    );
    const form = first.querySelector('form[data-testid=sign-in-form]');
    expect([form?.getAttribute('method'), form?.getAttribute('action')]).toEqual(['post', '/signin']);
    expect(form?.querySelector('input[name=next]')?.getAttribute('value')).toBe('/account');
    expect(form?.querySelector('input[name=email]')?.getAttribute('autocomplete')).toBe('username');
    expect(form?.querySelector('input[name=password]')?.getAttribute('type')).toBe('password');
    expect(first.querySelector('[role=alert]')).toBeNull();

    const again = parse(
      renderSiteDocument({
        siteName: 'Notes',
        title: 'Sign in',
        stylesheet: '/s.css',
        navigation: null,
        children: h(SignInForm, { next: '/account', problem: 'That did not match.', email: 'mei@example.com' }),
      }),
    );
    expect(again.querySelector('[role=alert][data-testid=sign-in-problem]')?.text).toBe('That did not match.');
    expect(again.querySelector('input[name=email]')?.getAttribute('value')).toBe('mei@example.com');
    expect(again.querySelector('input[name=password]')?.getAttribute('value')).toBeUndefined();
  });

  it('signs out with a post to /signout carrying the session’s CSRF token', () => {
    const { root } = document();
    const form = root.querySelector('nav form');
    expect([form?.getAttribute('method'), form?.getAttribute('action')]).toEqual(['post', '/signout']);
    expect(form?.querySelector('input[name=csrf_token]')?.getAttribute('value')).toBe('csrf-123');
    expect(form?.querySelector('button')?.getAttribute('class')).toBe('link-button');
  });
});
