/**
 * @module The data contract between GiftGenius's tool results and its
 * widget, which hosts cache: every result's data says which version it
 * follows, and a widget that does not know a version says it is out of date.
 */

/** The version of the tool results' data the widget reads. */
export const WIDGET_CONTRACT_VERSION = 1 as const;
