/**
 * @module A page of a site made with `createAgentSite` (agentready/site)
 * offering the site's tools on `document.modelContext`: it reads the tools
 * the site publishes for pages (`GET /agentready/tools`), registers them, and
 * sends each call to `POST /agentready/tools/:name` as the page's visitor;
 * each result the agent gets names the call's trace id in
 * `_meta["agentready/traceId"]`, as the site answered it.
 * When a call needs the person (a request they confirm), the page shows it
 * and links to the confirmation page. Browser only; no zod, no framework.
 */
import { readToolResult, type ToolResult } from '../contract/envelope.ts';
import type { PublishedTool } from '../contract/published-tool.ts';
import { traceIdOf, withTraceId } from '../contract/result-trace-id.ts';
import { findModelContext, type ModelContext } from './model-context.ts';
import { publishedPageTool } from './page-tools.ts';
import { createRouteToolRegistry, type RouteScope } from './route-tools.ts';

/** Options of {@link registerSitePageTools}. */
export type SitePageToolsOptions = {
  /** Where the site's toolkit routes live, as `createAgentSite`'s `basePath`. Default: `/agentready`. */
  basePath?: string;
  /** The model context to register on. Default: the document's (`document.modelContext`). */
  modelContext?: ModelContext;
  /**
   * Shows the person a request an agent prepared for them to confirm (a
   * result with `requiresHumanConfirmation` and a `confirmationUrl`).
   * Default: a small dialog at the bottom of the page with what was asked
   * and a "Review and confirm" link to the confirmation page.
   */
  showConfirmation?: (request: { summary: string; confirmationUrl: string }) => void;
};

/**
 * Registers the site's page tools on the document's model context.
 *
 * @returns the registration's scope (its `registered` promise settles when
 *   the browser has answered every registration), or null when the browser
 *   has no `document.modelContext` (the page works for people as before).
 * @throws Error when the site's tool list cannot be read (the site is down, or its path is not `basePath`).
 * @example
 * import { registerSitePageTools } from 'agentready/webmcp';
 * await registerSitePageTools();
 */
export async function registerSitePageTools(options: SitePageToolsOptions = {}): Promise<RouteScope | null> {
  const modelContext = options.modelContext ?? findModelContext();
  if (modelContext === null) return null;
  const basePath = (options.basePath ?? '/agentready').replace(/\/+$/, '');
  const listed = await fetch(`${basePath}/tools`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!listed.ok) throw new Error(`The site's tools could not be read from ${basePath}/tools (${listed.status}).`);
  const { tools } = (await listed.json()) as { tools: PublishedTool[] };
  const show = options.showConfirmation ?? showConfirmationDialog;
  let stateVersion = 0;
  const registry = createRouteToolRegistry({
    modelContext,
    stateVersion: () => stateVersion,
    async callServer(tool, input) {
      const answer = await fetch(`${basePath}/tools/${encodeURIComponent(tool)}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(input),
      });
      const body: unknown = await answer.json().catch(() => null);
      const result = readToolResult(body);
      if (result === null) throw new Error(`The site answered ${answer.status} without a tool result.`);
      stateVersion = result.stateVersion;
      return withTraceId(result, traceIdOf(body));
    },
  });
  const pageTools = tools.map((tool) =>
    publishedPageTool({
      tool,
      apply(result: ToolResult<unknown> & { ok: true }) {
        const { confirmationUrl, requiresHumanConfirmation } = result.guidance;
        if (!requiresHumanConfirmation || confirmationUrl === undefined) return false;
        const summary = (result.data as { summary?: unknown }).summary;
        show({ summary: typeof summary === 'string' ? summary : tool.title, confirmationUrl });
        return true;
      },
    }),
  );
  return registry.enter(location.pathname, pageTools);
}

/** The default way a page shows a request to confirm: a dialog at the bottom of the page, built with DOM calls (no markup from the server). */
function showConfirmationDialog(request: { summary: string; confirmationUrl: string }): void {
  document.querySelector('dialog[data-agentready-confirmation]')?.remove();
  const dialog = document.createElement('dialog');
  dialog.setAttribute('data-agentready-confirmation', '');
  dialog.setAttribute('aria-label', 'A request to confirm');
  Object.assign(dialog.style, {
    position: 'fixed',
    inset: 'auto 1rem 1rem auto',
    maxWidth: '28rem',
    border: '1px solid #8c959f',
    borderRadius: '12px',
    padding: '1rem',
  });
  const words = document.createElement('p');
  words.textContent = `Your assistant prepared: ${request.summary}`;
  const link = document.createElement('a');
  link.href = request.confirmationUrl;
  link.textContent = 'Review and confirm';
  const later = document.createElement('button');
  later.type = 'button';
  later.textContent = 'Later';
  later.addEventListener('click', () => dialog.close());
  const actions = document.createElement('p');
  actions.append(link, ' ', later);
  dialog.append(words, actions);
  document.body.append(dialog);
  dialog.show();
}
