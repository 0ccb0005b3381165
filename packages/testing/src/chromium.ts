/**
 * @module
 * Launches the system Chromium with its native WebMCP (`document.modelContext`)
 * switched on, for tests that drive pages through playwright-core.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Where Debian's `chromium` package installs the browser. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The switch that turns Chromium's WebMCP on. */
const WEBMCP_SWITCH = '--enable-features=WebMCP';

/**
 * The switches every WebMCP test browser runs with: WebMCP on, and the
 * background services that would add noise or network traffic off.
 */
export const WEBMCP_CHROMIUM_ARGS: readonly string[] = [
  WEBMCP_SWITCH,
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Options of {@link launchWebMcpChromium}. */
export type LaunchWebMcpChromiumOptions = {
  /** Browser binary. Default: env `CHROMIUM_PATH`, else `/usr/bin/chromium`. */
  executablePath?: string;
  /** Run without a window. Default: `true`. */
  headless?: boolean;
  /** Further command-line switches, after the WebMCP ones (e.g. `--host-resolver-rules=MAP site.test 127.0.0.1`). Default: none. */
  args?: readonly string[];
  /**
   * `false`: the same browser with WebMCP left off (no `document.modelContext`),
   * as most people's browsers are, for what a page does or loads there. Default: `true`.
   */
  webMcp?: boolean;
};

/**
 * Starts a headless Chromium whose pages expose `document.modelContext`, so
 * `page.webmcp.tools()` and `page.webmcp.callTool(name, input)` reach the
 * browser's own WebMCP rather than a stand-in (with `webMcp: false`, the
 * same browser without it).
 *
 * Uses the system binary (Chromium 156 or later); it never downloads one.
 * The caller closes the returned browser.
 *
 * @see https://playwright.dev/docs/api/class-webmcp
 * @throws Error when the binary does not exist, naming the path and the fix
 *   (install Debian's `chromium` package or set `CHROMIUM_PATH`).
 * @example
 * const browser = await launchWebMcpChromium();
 * const page = await browser.newPage();
 * await page.goto(url);
 * const tools = await page.webmcp.tools();
 * await browser.close();
 */
export async function launchWebMcpChromium(options: LaunchWebMcpChromiumOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? process.env['CHROMIUM_PATH'] ?? DEFAULT_CHROMIUM_PATH;
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium was not found at ${executablePath}. Install Debian's chromium package ` +
        `(apt-get install chromium) or set CHROMIUM_PATH to a Chromium 156+ binary.`,
    );
  }
  // playwright-core is an optional peer: loaded when a browser is launched.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: options.headless ?? true,
    args: [...WEBMCP_CHROMIUM_ARGS.filter((arg) => options.webMcp !== false || arg !== WEBMCP_SWITCH), ...(options.args ?? [])],
  });
}
