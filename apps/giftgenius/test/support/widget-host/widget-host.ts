/**
 * @module The widget tests' MCP Apps host: a loopback server that serves the
 * host page (host-page.ts, ext-apps' AppBridge) and the widget document with
 * the CSP built from the resource's `_meta.ui.csp`; Chromium renders the
 * widget in `<iframe sandbox="allow-scripts">`. The view's tools/call,
 * ui/open-link and log messages reach Node, where tools/call goes to the
 * test's MCP client (the real server) unless the tool's visibility excludes
 * 'app', which a host must refuse (MCP Apps 2026-01-26, "Visibility").
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { CallToolResult, LoggingMessageNotification, Tool } from '@modelcontextprotocol/client';
import type { McpUiHostContext, McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';
import { appMayCallTool } from '../chat-host.ts';
import { findAccessibilityViolations, listenOnLoopback, type AccessibilityViolation, type LoopbackListener } from '@agentready/testing';
import { HOST_PAGE_FILE } from './build-host-page.ts';
import type { HostPageConfig, WidgetTestHost } from './host-page.ts';
import { widgetContentSecurityPolicy } from '../../../src/chat-host/widget-csp.ts';

/** A widget resource as resources/read returns it: the HTML and the content's `_meta` (with `ui.csp`). */
export type WidgetResource = { html: string; meta?: { ui?: { csp?: McpUiResourceCsp } } & Record<string, unknown> };

/** One tools/call the view sent through the host, as the host saw it. */
export type RecordedToolCall = {
  name: string;
  arguments: Record<string, unknown>;
  /** `refused`: the host did not forward it (visibility); `answered`: the server's result is in `result`; `broke`: the call threw. */
  outcome: 'pending' | 'refused' | 'answered' | 'broke';
  result?: CallToolResult;
};

/** Options of {@link openWidgetInHost}. */
export type OpenWidgetOptions = {
  browser: Browser;
  resource: WidgetResource;
  /** The tool whose call the view shows (sent as hostContext.toolInfo). */
  tool: Tool;
  /** The server's tools/list: the host forwards the view's calls only to tools listed here whose visibility includes 'app'. */
  tools: Tool[];
  /** Runs a tool on the real server (the test's MCP client). */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** More host context (theme, locale, timeZone, styles). Default: light, en-US, UTC, a few style variables. */
  hostContext?: McpUiHostContext;
};

/** A widget open in the test host. */
export type WidgetInHost = {
  page: Page;
  /** The widget's frame (for evaluate). */
  frame: Frame;
  /** The widget's frame (for locators: getByRole, getByText). */
  view: FrameLocator;
  /** The CSP header the widget document was served with. */
  contentSecurityPolicy: string;
  /** ui/notifications/tool-input: the model's arguments. */
  showToolInput(args: Record<string, unknown>): Promise<void>;
  /** ui/notifications/tool-result: the model's call answered. */
  showToolResult(result: CallToolResult): Promise<void>;
  /** ui/notifications/tool-cancelled. */
  showToolCancelled(reason: string): Promise<void>;
  /** Every tools/call the view sent, in arrival order (recorded before it is forwarded). */
  toolCalls: RecordedToolCall[];
  /** Every log message the view sent (notifications/message params). */
  logs: Array<LoggingMessageNotification['params']>;
  /** Every URL the view asked the host to open. */
  openedLinks: string[];
  /** Uncaught errors in the host page or the view. */
  pageErrors: string[];
  close(): Promise<void>;
};

/** The host context the test host gives unless told otherwise: a light theme and a few of the spec's style variables. */
export const DEFAULT_HOST_CONTEXT: McpUiHostContext = {
  theme: 'light',
  locale: 'en-US',
  timeZone: 'UTC',
  styles: {
    variables: {
      '--color-background-primary': 'rgb(250, 247, 240)',
      '--color-text-primary': 'rgb(20, 20, 20)',
      '--font-sans': 'Arial, sans-serif',
    } as NonNullable<NonNullable<McpUiHostContext['styles']>['variables']>,
  },
};

/**
 * Serves the host page and the widget on 127.0.0.1, opens them in a new
 * browser context, and resolves once the view has finished the ui/initialize
 * handshake (nothing is sent to it before, as the spec requires).
 *
 * @throws when the resource declares a CSP domain that is not an origin
 *   (widget-csp.ts), or the view never initializes (the test's timeout).
 */
export async function openWidgetInHost(options: OpenWidgetOptions): Promise<WidgetInHost> {
  const contentSecurityPolicy = widgetContentSecurityPolicy(options.resource.meta?.ui?.csp);
  const server = await serveHostAndWidget(await readFile(HOST_PAGE_FILE, 'utf8'), options.resource.html, contentSecurityPolicy);
  const context = await options.browser.newContext();
  try {
    const page = await context.newPage();
    const recorded = { toolCalls: [] as RecordedToolCall[], logs: [] as WidgetInHost['logs'], openedLinks: [] as string[], pageErrors: [] as string[] };
    page.on('pageerror', (error) => recorded.pageErrors.push(error.message));
    await exposeHostBindings(page, options, recorded);
    await page.goto(`${server.url}/host`);
    const config: HostPageConfig = {
      widgetUrl: `${server.url}/view/gift-finder.html`,
      tool: options.tool,
      csp: options.resource.meta?.ui?.csp,
      hostContext: options.hostContext ?? DEFAULT_HOST_CONTEXT,
    };
    await callHostPage(page, 'open', config);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    if (frame === null) throw new Error('The widget frame did not load.');
    return {
      page,
      frame,
      view: page.frameLocator('iframe'),
      contentSecurityPolicy,
      showToolInput: (args) => callHostPage(page, 'sendToolInput', args),
      showToolResult: (result) => callHostPage(page, 'sendToolResult', result),
      showToolCancelled: (reason) => callHostPage(page, 'sendToolCancelled', reason),
      ...recorded,
      close: async () => {
        await context.close();
        await server.close();
      },
    };
  } catch (error) {
    await context.close();
    await server.close();
    throw error;
  }
}

/** Calls `method` of the host page's API (window.giftgeniusHost, host-page.ts) with `argument` (JSON). */
async function callHostPage<Method extends keyof WidgetTestHost>(page: Page, method: Method, argument: Parameters<WidgetTestHost[Method]>[0]): Promise<void> {
  await page.evaluate(
    ({ method, argument }) => {
      const host = (window as unknown as { giftgeniusHost: Record<string, (given: unknown) => Promise<void>> }).giftgeniusHost;
      return host[method]!(argument);
    },
    { method: method as string, argument: argument as unknown },
  );
}

/** GET /host: the host page; GET /view/gift-finder.html: the widget, with its CSP header. */
function serveHostAndWidget(hostHtml: string, widgetHtml: string, contentSecurityPolicy: string): Promise<LoopbackListener> {
  return listenOnLoopback((request) => {
    const { pathname } = new URL(request.url);
    const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    if (request.method === 'GET' && pathname === '/host') return new Response(hostHtml, { headers: html });
    if (request.method === 'GET' && pathname === '/view/gift-finder.html') {
      return new Response(widgetHtml, { headers: { ...html, 'content-security-policy': contentSecurityPolicy } });
    }
    return new Response('Not found', { status: 404 });
  });
}

/**
 * The bindings the host page's AppBridge handlers call. Playwright exposes a
 * binding in every frame, the view's too, so each one answers the host
 * page's main frame only: the view reaches Node through postMessage and the
 * bridge, never directly.
 */
async function exposeHostBindings(page: Page, options: OpenWidgetOptions, recorded: Pick<WidgetInHost, 'toolCalls' | 'logs' | 'openedLinks'>): Promise<void> {
  const fromHostPage = (frame: Frame) => {
    if (frame !== page.mainFrame()) throw new Error('Only the host page may use the host bindings.');
  };
  await page.exposeBinding('giftgeniusCallTool', async ({ frame }, name: string, args: Record<string, unknown>) => {
    fromHostPage(frame);
    const call: RecordedToolCall = { name, arguments: args, outcome: 'pending' };
    recorded.toolCalls.push(call);
    if (!appMayCallTool(options.tools, name)) {
      call.outcome = 'refused';
      throw new Error(`The host does not let the view call ${name}.`);
    }
    try {
      call.result = await options.callTool(name, args);
      call.outcome = 'answered';
      return call.result;
    } catch (error) {
      call.outcome = 'broke';
      throw error;
    }
  });
  await page.exposeBinding('giftgeniusOpenLink', ({ frame }, url: string) => {
    fromHostPage(frame);
    recorded.openedLinks.push(url);
  });
  await page.exposeBinding('giftgeniusLog', ({ frame }, params: LoggingMessageNotification['params']) => {
    fromHostPage(frame);
    recorded.logs.push(params);
  });
}

/**
 * The text a person reads in the element `locator` finds (whitespace at the
 * ends trimmed); the element must exist.
 */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/**
 * axe-core (@agentready/testing's findAccessibilityViolations) on the view's
 * own document: that helper only evaluates scripts in what it is given, and
 * the view's Frame evaluates as a Page does.
 *
 * @returns the violations, empty when there are none.
 */
export function findViewAccessibilityViolations(host: Pick<WidgetInHost, 'frame'>): Promise<AccessibilityViolation[]> {
  return findAccessibilityViolations(host.frame as unknown as Page);
}
