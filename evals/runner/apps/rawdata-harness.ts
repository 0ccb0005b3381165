/**
 * @module Rawdata requests for the runner: the site started in this process
 * on a fresh SQLite file (as its tests start it), a new analyst with
 * classified clearance signed in with the sign-in form, their agent on MCP
 * with a `submit` access token, and the state read from the site's database.
 * Rawdata has no WebMCP surface.
 *
 * Person actions: `confirm` (`draft_id`, and `tick`: the sensitive-data box,
 * default true): the person presses Confirm on the review page; answers
 * `{ code, version }`, the confirmation code and the version it confirms.
 * State: `drafts` (each draft in creation order: `{ versions, lastChangedBy }`)
 * and `applications` (each application: `{ status, draftVersion, projectName }`).
 */
import { randomUUID } from 'node:crypto';
import type { AppHarness, CaseSession, OpenSurface } from '../app-harness.ts';
import { openMcpSurface } from '../mcp-surface.ts';
import { confirmOnReviewPage } from '../../../apps/rawdata/test/support/rawdata-journey.ts';
import { startRawdataSite } from '../../../apps/rawdata/test/support/rawdata-site.ts';
import { signInPerson } from '../../../apps/rawdata/test/support/site-person.ts';

/** The Rawdata harness. */
export const rawdataHarness: AppHarness = {
  async start({ url, settings = {} }) {
    if (Object.keys(settings).length > 0) throw new Error(`Rawdata has no settings (given ${Object.keys(settings).join(', ')})`);
    if (url !== undefined) throw new Error('Rawdata cases read drafts and applications from the database of a site the runner starts; --url cannot serve them');
    const site = await startRawdataSite({ dialect: 'sqlite' });
    return {
      url: site.url,
      close: () => site.close(),
      async openCase(found) {
        if (found.surface !== 'mcp') throw new Error('Rawdata is reached over MCP only');
        const person = await signInPerson(site.url, await site.addAnalyst(`analyst-${randomUUID()}@example.com`));
        let surface: OpenSurface | undefined;
        const session: CaseSession = {
          async openSurface() {
            surface = await openMcpSurface({ siteUrl: site.url, ...(found.person === 'signed-in' && { token: await person.createAccessToken('submit') }) });
            return surface;
          },
          async act(name, args) {
            if (name !== 'confirm') throw new Error(`Rawdata has no person action "${name}" (it has confirm)`);
            const draftId = String(args['draft_id'] ?? '');
            const version = Number(args['draft_version']);
            return confirmOnReviewPage(person, draftId, version, args['tick'] !== false);
          },
          async readState() {
            const revisions = await site.db.selectFrom('rawdata_draft_revision').select(['draft_id', 'version', 'changed_by']).orderBy('id').execute();
            const drafts = new Map<string, { versions: number; lastChangedBy: string }>();
            for (const row of revisions) drafts.set(row.draft_id, { versions: row.version, lastChangedBy: row.changed_by });
            const applications = await site.db.selectFrom('rawdata_application').select(['status', 'draft_version', 'project_name']).orderBy('id').execute();
            return {
              drafts: [...drafts.values()],
              applications: applications.map((row) => ({ status: row.status, draftVersion: row.draft_version, projectName: row.project_name })),
            };
          },
          close: async () => surface?.close(),
        };
        return session;
      },
    };
  },
};
