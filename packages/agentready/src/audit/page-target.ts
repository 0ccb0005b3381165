/**
 * @module Auditing a web page through Chromium's own WebMCP
 * (`document.modelContext`, read through playwright-core's `page.webmcp`): the
 * page and its same-origin links to `depth` levels are loaded, each route's
 * tools listed; a few links are then followed inside the page (client-side
 * navigation) to see whether a route's tools outlive it. Links that would sign
 * out, delete or cancel are never followed; forms are never submitted; only
 * tools declaring `readOnlyHint` are called, and only with `--call-read-tools`.
 */
import type { Browser, Page } from 'playwright-core';
import { finding, type AuditedTool, type Finding } from './audit-report.ts';
import type { SchemaJudge } from './json-schema-checks.ts';
import { loadPlaywright } from './optional-packages.ts';
import { resultFindings, type SeenResult } from './result-checks.ts';
import { exampleArguments } from './tool-arguments.ts';
import { isSafeToCall, listingFindings } from './tool-checks.ts';
import { UnreachableTargetError } from './mcp-target.ts';

/** Where Debian's chromium package installs the browser. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium's switches: WebMCP on, background services that would add traffic off. */
const CHROMIUM_ARGS = [
  '--enable-features=WebMCP',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Links whose words say that following them changes something. */
const CHANGING_LINK = /(log-?out|sign-?out|delete|remove|cancel|unsubscribe|revoke)/i;
/** At most this many pages are loaded, whatever the depth. */
const MAX_PAGES = 25;
/** At most this many links of the first page are followed inside the page for the route check. */
const MAX_IN_PAGE_LINKS = 6;
/** How long one page may take to load, in milliseconds. */
const PAGE_TIMEOUT_MS = 20_000;

/** Options of {@link auditPage}. */
export type PageAuditOptions = {
  /** Link levels to follow from the first page (0: that page only). */
  depth: number;
  callReadTools: boolean;
  /** The caller's `--header`s, sent with every request of the pages. */
  headers: Record<string, string>;
  /** The browser binary. Default: env AGENTREADY_CHROMIUM, else /usr/bin/chromium. */
  executablePath?: string;
  schemas: SchemaJudge;
  progress: (line: string) => void;
};

/** What auditing a page found: tools merged over routes (`routes` lists where each was seen). */
export type PageAudit = { tools: AuditedTool[]; findings: Finding[]; called: string[]; skipped: string[] };

type WebMcpTool = Awaited<ReturnType<Page['webmcp']['tools']>>[number];

/**
 * Launches Chromium, audits `url` and its same-origin links, closes Chromium.
 *
 * @throws UnreachableTargetError when the first page does not load.
 * @throws MissingAuditPackageError when playwright-core is not installed.
 */
export async function auditPage(url: URL, options: PageAuditOptions): Promise<PageAudit> {
  const { chromium } = await loadPlaywright();
  const executablePath = options.executablePath ?? process.env['AGENTREADY_CHROMIUM'] ?? DEFAULT_CHROMIUM_PATH;
  options.progress('starting Chromium');
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new UnreachableTargetError(
      `Could not start Chromium at ${executablePath} (set AGENTREADY_CHROMIUM or --chromium): ${(error as Error).message.split('\n')[0]}`,
    );
  }
  try {
    const context = await browser.newContext({ extraHTTPHeaders: options.headers });
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const page = await context.newPage();
    return await crawl(page, url, options);
  } finally {
    await browser.close();
  }
}

async function crawl(page: Page, start: URL, options: PageAuditOptions): Promise<PageAudit> {
  const toolsByRoute = new Map<string, WebMcpTool[]>();
  const linksByRoute = new Map<string, string[]>();
  let level = [normalized(start)];
  for (let depth = 0; depth <= options.depth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const address of level) {
      if (toolsByRoute.has(address) || toolsByRoute.size >= MAX_PAGES) continue;
      options.progress(`loading ${new URL(address).pathname}`);
      const loaded = await load(page, address);
      if (!loaded) {
        if (toolsByRoute.size === 0) throw new UnreachableTargetError(`${address} did not answer an HTML page.`);
        continue;
      }
      toolsByRoute.set(address, await page.webmcp.tools());
      const links = await sameOriginLinks(page, start);
      linksByRoute.set(address, links);
      next.push(...links);
    }
    level = [...new Set(next)];
  }

  const merged = new Map<string, AuditedTool>();
  for (const [address, listed] of toolsByRoute) {
    for (const tool of listed) {
      const known = merged.get(tool.name);
      if (known !== undefined) known.routes!.push(new URL(address).pathname);
      else merged.set(tool.name, { ...auditedTool(tool), routes: [new URL(address).pathname] });
    }
  }
  const tools = [...merged.values()];
  const found = tools.flatMap((tool) => listingFindings(tool, 'webmcp', options.schemas));
  if (tools.length === 0) found.push(finding('no-tools', undefined, `No page of ${toolsByRoute.size} loaded registered a WebMCP tool.`));
  found.push(...(await routeFindings(page, normalized(start), toolsByRoute, linksByRoute, options)));

  const called: string[] = [];
  const skipped: string[] = [];
  if (options.callReadTools) {
    for (const tool of tools.filter(isSafeToCall)) {
      const args = exampleArguments(tool);
      if (args === undefined) {
        skipped.push(tool.name);
        continue;
      }
      const route = [...toolsByRoute].find(([, listed]) => listed.some((each) => each.name === tool.name))![0];
      options.progress(`calling ${tool.name} on ${new URL(route).pathname}`);
      if (!(await load(page, route))) continue;
      called.push(tool.name);
      try {
        const result = await page.webmcp.callTool(tool.name, args as never);
        if (typeof result === 'object' && result !== null && 'content' in result) {
          found.push(...resultFindings(tool, result as SeenResult, 'a read-only call with example arguments', options.schemas));
        }
      } catch {
        // A tool that throws on its own examples says nothing about the rules here.
      }
    }
  }
  return { tools, findings: found, called, skipped };
}

/** Follows a few links of the first page inside it and compares the tools with a fresh load of the same route. */
async function routeFindings(
  page: Page,
  start: string,
  toolsByRoute: Map<string, WebMcpTool[]>,
  linksByRoute: Map<string, string[]>,
  options: PageAuditOptions,
): Promise<Finding[]> {
  const found: Finding[] = [];
  const reported = new Set<string>();
  const targets = (linksByRoute.get(start) ?? []).filter((link) => toolsByRoute.has(link) && link !== start).slice(0, MAX_IN_PAGE_LINKS);
  for (const target of targets) {
    if (!(await load(page, start))) break;
    options.progress(`following ${new URL(target).pathname} inside the page`);
    const index = await page
      .locator('a[href]')
      .evaluateAll(
        (anchors, wanted) =>
          anchors.findIndex((anchor) => (anchor as HTMLAnchorElement).href.split('#')[0] === wanted && (anchor as HTMLElement).offsetParent !== null),
        target,
      );
    if (index < 0) continue;
    try {
      await page.locator('a[href]').nth(index).click();
      await page.waitForURL((address) => address.href.split('#')[0] === target);
      await page.waitForLoadState('networkidle');
    } catch {
      continue;
    }
    const fresh = new Set(toolsByRoute.get(target)!.map((tool) => tool.name));
    for (const tool of await page.webmcp.tools()) {
      if (fresh.has(tool.name) || reported.has(tool.name)) continue;
      reported.add(tool.name);
      found.push(
        finding(
          'page-tool-outlives-route',
          tool.name,
          `After following a link from ${new URL(start).pathname} to ${new URL(target).pathname} inside the page, the tool is still registered; a fresh load of ${new URL(target).pathname} has no such tool.`,
        ),
      );
    }
  }
  return found;
}

/** Loads `address` and waits until the network is idle (tools register after the page's scripts ran). False when it is not an HTML page. */
async function load(page: Page, address: string): Promise<boolean> {
  try {
    const response = await page.goto(address, { waitUntil: 'load' });
    if (response === null || !response.ok() || !(response.headers()['content-type'] ?? '').includes('text/html')) return false;
    await page.waitForLoadState('networkidle');
    return true;
  } catch {
    return false;
  }
}

async function sameOriginLinks(page: Page, start: URL): Promise<string[]> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((anchor) => `${(anchor as HTMLAnchorElement).href}\n${anchor.textContent ?? ''}`));
  const links = new Set<string>();
  for (const entry of hrefs) {
    const [href = '', text = ''] = entry.split('\n');
    let link: URL;
    try {
      link = new URL(href);
    } catch {
      continue;
    }
    if (link.origin !== start.origin || CHANGING_LINK.test(link.pathname) || CHANGING_LINK.test(text)) continue;
    links.add(normalized(link));
  }
  return [...links];
}

function normalized(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

function auditedTool(tool: WebMcpTool): AuditedTool {
  const annotations = tool.annotations ?? {};
  return {
    name: tool.name,
    description: tool.description,
    ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    annotations: {
      ...(annotations.readOnly !== undefined && { readOnlyHint: annotations.readOnly }),
      ...(annotations.untrustedContent !== undefined && { untrustedContentHint: annotations.untrustedContent }),
    },
    marksUntrustedContent: annotations.untrustedContent === true,
  };
}
