/**
 * @module
 * Builds DOM elements from data without ever parsing HTML: text is set as
 * text nodes, so server text (titles, summaries, venues) can never become markup.
 */

/** What {@link el} sets on a new element. */
export type ElementOptions = {
  /** `class` attribute. */
  className?: string;
  /** Plain text content (set as a text node). */
  text?: string;
  /** `data-testid`, the stable hook tests select by. */
  testId?: string;
  /** Other attributes, set with `setAttribute`; `false` or `undefined` leaves one out. */
  attrs?: Record<string, string | boolean | undefined>;
  /** Event listeners by event type. */
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
};

/** A child of {@link el}: strings become text nodes; null, undefined and false are skipped. */
export type Child = Node | string | null | undefined | false;

/**
 * Creates an element with options and children.
 *
 * @example
 * el('a', { attrs: { href: `/events/${encodeURIComponent(id)}` } }, [event.title]);
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) element.className = options.className;
  if (options.testId !== undefined) element.dataset['testid'] = options.testId;
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  if (options.on !== undefined) {
    for (const [type, listener] of Object.entries(options.on)) {
      element.addEventListener(type, listener as EventListener);
    }
  }
  if (options.text !== undefined) element.append(document.createTextNode(options.text));
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}
