/**
 * @module The test host's page script (an MCP Apps host, as a chat client's
 * page would be): renders the view in `<iframe sandbox="allow-scripts">` and
 * speaks to it with ext-apps' AppBridge over postMessage. The bridge has no
 * MCP client in the page (AppBridge(null, …)): its tools/call, ui/open-link
 * and log messages go to Node through bindings the driver (widget-host.ts)
 * exposes, where the test's MCP client reaches the real server.
 */
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, LoggingMessageNotification } from '@modelcontextprotocol/client';
import { openViewFrame, type ViewFrameConfig } from '../../../src/chat-host/page/view-frame.ts';

/** What the driver gives {@link WidgetTestHost.open}: the host's own view-frame config. */
export type HostPageConfig = ViewFrameConfig;

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
  bridge = await openViewFrame(document.body, 'GiftGenius gift finder', config, {
    callTool: (name, args) => node.giftgeniusCallTool(name, args),
    openLink: (url) => node.giftgeniusOpenLink(url),
    log: (params) => void node.giftgeniusLog(params),
  });
}

node.giftgeniusHost = {
  open,
  sendToolInput: (args) => requireBridge().sendToolInput({ arguments: args }),
  sendToolResult: (result) => requireBridge().sendToolResult(result),
  sendToolCancelled: (reason) => requireBridge().sendToolCancelled({ reason }),
};
