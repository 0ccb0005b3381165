/**
 * @module
 * `/`: what the site is, and the way to the events.
 */
import { el } from '../dom-elements.ts';
import type { PageContext } from '../page-context.ts';
import type { NoControls } from '../page-controls.ts';

/** Renders the home page: a short introduction and a link to /events. */
export function renderHomePage(context: PageContext): NoControls {
  context.setTitle('Home');
  context.root.append(
    el('h1', {}, ['AgentReady Events']),
    el('p', { className: 'lead' }, [
      'Talks, workshops and meetups across Taiwan. Find an event, save it for later, and register for a place.',
    ]),
    el('p', {}, [
      'An AI assistant in your browser can search and prepare for you here; registering and cancelling always wait for your click.',
    ]),
    el('p', {}, [el('a', { className: 'button button-primary', testId: 'browse-events', attrs: { href: '/events' } }, ['Browse events'])]),
  );
  return {};
}
