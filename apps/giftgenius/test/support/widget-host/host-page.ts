/**
 * @module The test host's page script (an MCP Apps host, as a chat client's
 * page would be): renders the view in `<iframe sandbox="allow-scripts">` and
 * speaks to it with ext-apps' AppBridge over postMessage. The bridge has no
 * MCP client in the page (AppBridge(null, …)): its tools/call, ui/open-link
 * and log messages go to Node through bindings the driver (widget-host.ts)
 * exposes, where the test's MCP client reaches the real server.
 */
import { AppBridge, PostMessageTransport, type McpUiHostContext, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, LoggingMessageNotification, Tool } from '@modelcontextprotocol/client';

/** What the driver gives {@link WidgetTestHost.open}. */
export type HostPageConfig = {
  /** Where the test server serves the widget document (with its CSP header). */
  widgetUrl: string;
  /** The tool whose call the view shows (hostContext.toolInfo). */
  tool: Tool;
  /** The CSP the host applied, told to the view in hostCapabilities.sandbox. */
  csp: McpUiResourceCsp | undefined;
  /** More host context: locale, theme, style variables. */
  hostContext: McpUiHostContext;
};

/** The page's API for the driver (window.giftgeniusHost). */
export type WidgetTestHost = {
  /** Renders the view and resolves once it sent ui/notifications/initialized. */
  open(config: HostPageConfig): Promise<void>;
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  sendToolResult(result: CallToolResult): Promise<void>;
  sendToolCancelled(reason: string): Promise<void>;
};

/** The Node bindings the driver exposes on the page. */
type NodeBindings = {
  giftgeniusCallTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  giftgeniusOpenLink(url: string): Promise<void>;
  giftgeniusLog(params: LoggingMessageNotification['params']): Promise<void>;
};

const node = window as unknown as Window & NodeBindings & { giftgeniusHost: WidgetTestHost };
let bridge: AppBridge | null = null;

function requireBridge(): AppBridge {
  if (bridge === null) throw new Error('The view is not open.');
  return bridge;
}

async function open(config: HostPageConfig): Promise<void> {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'GiftGenius gift finder';
  document.body.append(iframe);
  const view = iframe.contentWindow!;
  const hostContext: McpUiHostContext = { toolInfo: { tool: config.tool }, displayMode: 'inline', platform: 'web', ...config.hostContext };
  const created = new AppBridge(
    null,
    { name: 'giftgenius-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, logging: {}, sandbox: config.csp ? { csp: config.csp } : {} },
    { hostContext },
  );
  created.oncalltool = (params) => node.giftgeniusCallTool(params.name, params.arguments ?? {});
  created.onopenlink = async ({ url }) => {
    await node.giftgeniusOpenLink(url);
    return {};
  };
  created.onloggingmessage = (params) => void node.giftgeniusLog(params);
  created.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (created.oninitialized = () => resolve()));
  // Listening before the view loads, so its ui/initialize is not missed.
  await created.connect(new PostMessageTransport(view, view));
  bridge = created;
  iframe.src = config.widgetUrl;
  await initialized;
}

node.giftgeniusHost = {
  open,
  sendToolInput: (args) => requireBridge().sendToolInput({ arguments: args }),
  sendToolResult: (result) => requireBridge().sendToolResult(result),
  sendToolCancelled: (reason) => requireBridge().sendToolCancelled({ reason }),
};
