/**
 * @module How an MCP Apps host shows a view: an `<iframe sandbox="allow-scripts">`
 * (no same origin: the view cannot read the host's page or cookies) spoken to
 * with ext-apps' AppBridge over postMessage. The bridge has no MCP client in
 * the page (`AppBridge(null, …)`): the view's tools/call, ui/open-link and log
 * messages go to the handlers the host gives, which decide what reaches the
 * server (MCP Apps 2026-01-26, "Host Behavior").
 */
import { AppBridge, PostMessageTransport, type McpUiHostContext, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, LoggingMessageNotification, Tool } from '@modelcontextprotocol/client';

/** What the host shows and tells the view. */
export type ViewFrameConfig = {
  /** Where the host serves the view's document (with the CSP built from the resource's `_meta.ui.csp`). */
  widgetUrl: string;
  /** The tool whose call the view shows (hostContext.toolInfo). */
  tool: Tool;
  /** The CSP the host applied, told to the view in hostCapabilities.sandbox. */
  csp: McpUiResourceCsp | undefined;
  /** More host context: theme, locale, time zone, style variables. */
  hostContext: McpUiHostContext;
};

/** Where the view's requests go. */
export type ViewFrameHandlers = {
  /** The view's tools/call; the host refuses (rejects) a tool whose visibility excludes 'app'. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The view's ui/open-link; rejects when the host refuses to open it. */
  openLink(url: string): Promise<void>;
  /** The view's notifications/message. */
  log(params: LoggingMessageNotification['params']): void;
};

/**
 * Appends the view's frame to `container`, loads `config.widgetUrl` in it, and
 * resolves with the bridge once the view sent ui/notifications/initialized
 * (nothing is sent to a view before, as the specification requires).
 *
 * @param title the frame's accessible name.
 * @returns the connected bridge: sendToolInput, sendToolResult, sendToolCancelled.
 */
export async function openViewFrame(container: HTMLElement, title: string, config: ViewFrameConfig, handlers: ViewFrameHandlers): Promise<AppBridge> {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = title;
  container.append(iframe);
  const view = iframe.contentWindow!;
  const hostContext: McpUiHostContext = { toolInfo: { tool: config.tool }, displayMode: 'inline', platform: 'web', ...config.hostContext };
  const bridge = new AppBridge(
    null,
    { name: 'giftgenius-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, logging: {}, sandbox: config.csp ? { csp: config.csp } : {} },
    { hostContext },
  );
  bridge.oncalltool = (params) => handlers.callTool(params.name, params.arguments ?? {});
  bridge.onopenlink = async ({ url }) => {
    await handlers.openLink(url);
    return {};
  };
  bridge.onloggingmessage = (params) => handlers.log(params);
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  // Listening before the view loads, so its ui/initialize is not missed.
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.src = config.widgetUrl;
  await initialized;
  return bridge;
}
