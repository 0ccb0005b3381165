/**
 * @module The confirmation page of a site made with `createAgentSite`: where
 * the person reads what an agent prepared and confirms or declines it, and
 * then reads what happened. Plain HTML rendered on the server (Hono's `html`
 * template escapes every value), one form posting to itself, no script; the
 * answer carries a Content-Security-Policy that allows no script at all and
 * forbids framing, so no other site can dress the button up as something else.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/** The headers every confirmation page answers with. */
export const CONFIRMATION_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1f2328; }
  main { max-width: 36rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  .request { font-size: 1.125rem; padding: 1rem; background: #f0f4ff; border-radius: 8px; white-space: pre-wrap; overflow-wrap: break-word; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1.2rem; border-radius: 8px; border: 1px solid #8c959f; background: #fff; cursor: pointer; }
  button[value=confirm] { background: #1f6feb; border-color: #1f6feb; color: #fff; }
  .site { color: #57606a; font-size: .875rem; margin: 0 0 .5rem; }
  .failed { color: #a40e26; }
`;

function page(siteName: string, title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${siteName}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="site">${siteName}</p>
${body}
</main>
</body>
</html>`;
}

/**
 * Control and format characters (Unicode general categories Cc and Cf: NUL,
 * ESC, bidirectional overrides and isolates, zero-width characters) shown as
 * their code points, except line feed and tab. A sentence made from an
 * agent's input may carry U+202E to make "500 USD" read as something else;
 * the person reads what will happen, character for character. One pass over
 * the text (a linear regular expression).
 */
export function visibleCharacters(text: string): string {
  return text.replace(/[^\P{Cc}\n\t]|\p{Cf}/gu, (character) => `[U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** What the page asks: the tool's title, the sentence from its `confirm`, and the draft version shown. */
export type ConfirmationRequest = { siteName: string; title: string; summary: string; draftVersion: number };

/** The page that asks the person to confirm or decline one request. */
export function confirmationPage(request: ConfirmationRequest) {
  return page(
    request.siteName,
    request.title,
    html`<h1>${request.title}</h1>
<p>An assistant prepared this request for you. Nothing happens unless you confirm it.</p>
<p class="request" data-testid="request">${visibleCharacters(request.summary)}</p>
<form method="post">
<input type="hidden" name="draft_version" value="${String(request.draftVersion)}">
<div class="actions">
<button type="submit" name="decision" value="confirm">Confirm</button>
<button type="submit" name="decision" value="decline">Decline</button>
</div>
</form>`,
  );
}

/** The page after the person's answer: what happened, in words. */
export function answerPage(siteName: string, title: string, outcome: { done: boolean; heading: string; words: string }) {
  return page(
    siteName,
    title,
    html`<h1>${outcome.heading}</h1>
<p class="${outcome.done ? 'done' : 'failed'}" data-testid="outcome">${outcome.words}</p>`,
  );
}
