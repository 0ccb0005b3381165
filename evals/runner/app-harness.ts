/**
 * @module What the runner needs of an app, whichever it is: start it on a
 * fresh database (or reach one already running at a URL), open a case's
 * surface for its person, do what the person does between turns, and read the
 * state a case's `expectedState` names. Each app's harness is in `apps/`.
 */
import type { Browser } from 'playwright-core';
import type { EvalCase, EvalSurface } from './case-format.ts';

/** A tool as the surface lists it: what a model is shown. */
export type ListedTool = {
  name: string;
  description: string;
  /** The input's JSON Schema, as the surface publishes it. */
  inputSchema: Record<string, unknown>;
};

/** What a call answered: the envelope (null when there was none), the text the surface gave with it, or why no call was made. */
export type CallAnswer = {
  /** The result envelope (`structuredContent` on MCP; what `executeTool` returned on WebMCP). */
  envelope: Record<string, unknown> | null;
  /** The MCP text content; on WebMCP, the envelope as JSON. */
  text: string;
  /** Set when the surface made no call (the tool is not listed there, the page refused): the reason. */
  notCalled?: string;
};

/** A case's surface, opened for its person. */
export type OpenSurface = {
  surface: EvalSurface;
  /** The tools a model may use now (MCP: those a host shows a model; WebMCP: those the page registered). */
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallAnswer>;
  /** WebMCP: the person opens `path` and the page registers its tools. */
  navigate?(path: string): Promise<void>;
  close(): Promise<void>;
};

/** One case's session on a running app: the person's actions, their surface (opened after the setup, so a page shows what the setup did), the state reads. */
export type CaseSession = {
  /** Opens the case's surface for the person: the MCP client connected, or the start page loaded with its tools registered. */
  openSurface(): Promise<OpenSurface>;
  /**
   * Does one person action (`do` with its arguments); answers what it produced (an id, a code) for later `$from`.
   * @throws Error naming the action when the app has none of that name or the site refused it.
   */
  act(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** The state names this session reads, and their values now (on WebMCP, once the surface is open, also what the page posted). */
  readState(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
};

/** An app started for the run (or reached at `--url`). */
export type RunningApp = {
  url: string;
  /** Opens a case: its person signed up and signed in (or a visitor); the caller does the setup, then opens the surface. */
  openCase(found: EvalCase, browser: () => Promise<Browser>): Promise<CaseSession>;
  close(): Promise<void>;
};

/** An app's harness. */
export type AppHarness = {
  /**
   * Starts the app in this process on a fresh temporary database with the case's `settings`, or reaches `url`.
   * @throws Error naming a setting the harness does not know, or one it cannot apply to a running app.
   */
  start(options: { url?: string; settings?: Record<string, string | number | boolean> }): Promise<RunningApp>;
};
