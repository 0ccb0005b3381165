/**
 * @module What people do on the site, declared as tools of a site-only
 * catalog (never offered to agents; the toolkit's pipeline refuses any call
 * that is not the person's browser session on the site's own pages) and run
 * through the same pipeline, so each leaves audit evidence in the same
 * journey as the agent's calls: the request form's draft, the person's
 * Confirm on the review page (the only place a confirmation token is
 * minted), and an operator's decision. Each tool is in its own file.
 */
import { defineCatalog } from 'agentready';
import { approveApplicationDraftTool } from './approve-application-draft.ts';
import { decideApplicationTool } from './decide-application.ts';
import { prepareDraftFromForm } from './prepare-draft-from-form.ts';

/** The site's own steps: never offered to agents. */
export const siteCatalog = defineCatalog([prepareDraftFromForm, approveApplicationDraftTool, decideApplicationTool] as const, { siteOnly: true });
