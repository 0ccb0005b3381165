/**
 * @module A case's WebMCP surface: a page of the site in Chromium with its own
 * WebMCP (`document.modelContext`), driven through playwright-core's
 * `page.webmcp`; the person's session cookie is the browser's. The POSTs the
 * page sends are recorded, so a case can say which endpoints a call reached.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { OpenSurface } from './app-harness.ts';

/** How long a page may take to register its tools before the step fails, in milliseconds (a guard, not a measurement). */
const TOOLS_GIVE_UP_MS = 15_000;

/** A WebMCP surface with the page's POSTs. */
export type WebMcpSurface = OpenSurface & {
  /** Paths of every POST the page sent, in order. */
  posts: string[];
  page: Page;
};

/** Options of {@link openWebMcpSurface}. */
export type OpenWebMcpOptions = {
  browser: Browser;
  siteUrl: string;
  /** The session cookie (`name=value`) the person's browser holds; none for a visitor. */
  cookie?: string;
  /** The first page. */
  start: string;
  /** The tool names the page at `path` registers, so an opened page is waited for until it has them. */
  toolsAt(path: string): string[];
};

/**
 * Opens `start` in a new browser context of `browser`, waits until the page has registered the tools `toolsAt` names.
 *
 * @throws Error when the page does not register them within 15 s (naming what it did register).
 */
export async function openWebMcpSurface(options: OpenWebMcpOptions): Promise<WebMcpSurface> {
  const context: BrowserContext = await options.browser.newContext();
  context.setDefaultTimeout(TOOLS_GIVE_UP_MS);
  if (options.cookie !== undefined) {
    const separator = options.cookie.indexOf('=');
    await context.addCookies([
      { name: options.cookie.slice(0, separator), value: options.cookie.slice(separator + 1), url: options.siteUrl, httpOnly: true, sameSite: 'Lax' },
    ]);
  }
  const page = await context.newPage();
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });

  async function navigate(path: string): Promise<void> {
    await page.goto(new URL(path, options.siteUrl).href);
    const wanted = [...options.toolsAt(path)].sort().join(',');
    let listed = '';
    const giveUpAt = Date.now() + TOOLS_GIVE_UP_MS;
    for (;;) {
      listed = (await page.webmcp.tools())
        .map((tool) => tool.name)
        .sort()
        .join(',');
      if (listed === wanted) return;
      if (Date.now() > giveUpAt) throw new Error(`${path} registered [${listed}], not [${wanted}]`);
      await page.waitForTimeout(25);
    }
  }

  await navigate(options.start);
  return {
    surface: 'webmcp',
    posts,
    page,
    navigate,
    async listTools() {
      return (await page.webmcp.tools()).map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: (typeof tool.inputSchema === 'string' ? JSON.parse(tool.inputSchema) : (tool.inputSchema ?? { type: 'object' })) as Record<
          string,
          unknown
        >,
      }));
    },
    async callTool(name, args) {
      const listed = (await page.webmcp.tools()).some((tool) => tool.name === name);
      if (!listed) return { envelope: null, text: '', notCalled: `${name} is not registered on ${new URL(page.url()).pathname}` };
      const answer = await page.webmcp.callTool(name, args);
      const envelope = (typeof answer === 'string' ? JSON.parse(answer) : answer) as Record<string, unknown> | null;
      return { envelope, text: JSON.stringify(envelope) };
    },
    close: () => context.close(),
  };
}
