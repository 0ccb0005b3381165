/**
 * @module
 * Any path the site does not know.
 */
import { el } from '../dom-elements.ts';
import type { PageContext } from '../page-context.ts';
import type { NoControls } from '../page-controls.ts';

/** Renders "Page not found" with a way back to the events. */
export function renderNotFoundPage(context: PageContext): NoControls {
  context.setTitle('Page not found');
  context.root.append(
    el('h1', {}, ['Page not found']),
    el('p', {}, ['There is nothing at this address. ', el('a', { attrs: { href: '/events' } }, ['Browse events'])]),
  );
  return {};
}
