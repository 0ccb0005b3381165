/**
 * @module The GiftGenius MCP server's options: its tools, the widget that
 * renders their results (one HTML document, served as the MCP Apps resource
 * and as the ChatGPT Apps `text/html+skybridge` copy), which tool the model
 * is offered and which only the widget calls, and what of a result only the
 * widget receives (the checkout's confirmation token).
 */
import type { InvocationPipeline } from 'agentready/runtime';
import type { McpToolServerOptions } from 'agentready/mcp';
import { appWidgets, type PreparedAppWidgets } from 'agentready/mcp-apps';
import type { ToolResult } from 'agentready';
import { CHECKOUT_META_KEY } from '../widget/widget-contract.ts';
import { giftgeniusCatalog } from './catalog.ts';

type GiftGeniusTool = (typeof giftgeniusCatalog.tools)[number];

/** Name and version clients show. */
export const GIFTGENIUS_MCP_SERVER_INFO = { name: 'agentready-giftgenius', title: 'GiftGenius', version: '0.1.0' };

/** The widget for MCP Apps hosts; the version in the name changes with the data contract (hosts cache it). */
export const WIDGET_RESOURCE_URI = 'ui://giftgenius/gift-finder-v1.html';
/** The same widget for ChatGPT (`openai/outputTemplate`). */
export const SKYBRIDGE_RESOURCE_URI = 'ui://giftgenius/gift-finder-v1.skybridge.html';

/** Instructions for the model, sent at connection. */
export const GIFTGENIUS_MCP_INSTRUCTIONS =
  'GiftGenius suggests gifts from its shop and prepares their checkout. Ask who the gift is for (relationship; age if known), what they like and the budget, ' +
  'then call suggest_gifts; the widget shows the gifts as cards. When the person picks one, call prepare_checkout: the widget shows the checkout with a Confirm button. ' +
  'Only the person completes a purchase, by clicking Confirm in the widget; you never can. When suggest_gifts finds nothing, offer its suggestion to the person.';

/** Where the widget's document and pictures come from. */
export type WidgetSource = {
  /** The built widget (dist/widget/gift-finder.html), read at each resources/read. */
  html: () => string | Promise<string>;
  /** Exact origins the widget loads pictures from (the shop's images); never a wildcard. */
  imageOrigins: string[];
};

/**
 * The widgets option: both resources (MCP Apps `_meta.ui.csp` and
 * `prefersBorder`; ChatGPT `openai/widgetCSP`, `openai/widgetDescription`,
 * `openai/widgetPrefersBorder`), the two model-facing tools rendered by the
 * widget, and create_checkout_session visible to the app only.
 *
 * @throws Error when an image origin is not an absolute http(s) origin (a wildcard included).
 */
export function giftgeniusWidgets(source: WidgetSource): PreparedAppWidgets {
  const origins = source.imageOrigins.map(exactOrigin);
  const description = 'GiftGenius shows gift suggestions as cards, and a checkout the person confirms with a button.';
  const shared = {
    ui: { csp: { resourceDomains: origins, connectDomains: [] }, prefersBorder: true },
    'openai/widgetCSP': { resource_domains: origins, connect_domains: [] },
    'openai/widgetDescription': description,
    'openai/widgetPrefersBorder': true,
  };
  const rendered = { resourceUri: WIDGET_RESOURCE_URI, meta: { 'openai/outputTemplate': SKYBRIDGE_RESOURCE_URI, 'openai/widgetAccessible': true } };
  return appWidgets<GiftGeniusTool['name']>({
    resources: [
      { uri: WIDGET_RESOURCE_URI, name: 'gift_finder', title: 'GiftGenius', description, html: source.html, meta: shared },
      {
        uri: SKYBRIDGE_RESOURCE_URI,
        name: 'gift_finder_chatgpt',
        title: 'GiftGenius (ChatGPT)',
        description,
        mimeType: 'text/html+skybridge',
        html: source.html,
        meta: shared,
      },
    ],
    tools: {
      suggest_gifts: rendered,
      prepare_checkout: { ...rendered, widgetOnly: keepConfirmationForWidget },
      create_checkout_session: {
        resourceUri: WIDGET_RESOURCE_URI,
        visibility: ['app'],
        meta: { 'openai/widgetAccessible': true, 'openai/visibility': 'private' },
      },
    },
  });
}

/** Moves prepare_checkout's confirmation out of what the model reads, into `_meta[CHECKOUT_META_KEY]`. */
function keepConfirmationForWidget(envelope: ToolResult<unknown>) {
  if (!envelope.ok) return { envelope, meta: {} };
  const { checkoutConfirmation, ...data } = envelope.data as { checkoutConfirmation?: unknown };
  return { envelope: { ...envelope, data }, meta: checkoutConfirmation === undefined ? {} : { [CHECKOUT_META_KEY]: checkoutConfirmation } };
}

function exactOrigin(origin: string): string {
  const url = new URL(origin);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.replace(/\/$/, ''))
    throw new Error(`A widget origin must be an exact http(s) origin: ${origin}`);
  return url.origin;
}

/**
 * Options of the GiftGenius MCP server on `pipeline`. No confirmation page is
 * offered to clients (the person confirms in the widget, and a signed
 * request state would carry the widget's token to the host's model side).
 */
export function giftgeniusMcpServerOptions(pipeline: InvocationPipeline, widget: WidgetSource): McpToolServerOptions<GiftGeniusTool> {
  return {
    serverInfo: GIFTGENIUS_MCP_SERVER_INFO,
    instructions: GIFTGENIUS_MCP_INSTRUCTIONS,
    catalog: giftgeniusCatalog,
    pipeline,
    confirmationPageElicitation: false,
    widgets: giftgeniusWidgets(widget),
  };
}
