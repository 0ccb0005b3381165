/**
 * @module The script a site made with `createAgentSite` serves at
 * `/agentready/webmcp.js` (built into one file, `dist/browser/agentready-webmcp.js`):
 * `<script type="module" src="/agentready/webmcp.js"></script>` in a page
 * registers the site's tools there. Where the browser has no
 * `document.modelContext`, it does nothing.
 */
import { registerSitePageTools } from './site-page-tools.ts';

// Served from the site's base path (`/agentready/webmcp.js`): its tool routes are beside it.
// (Not `new URL('.', import.meta.url)`: bundlers read that as an asset to inline.)
const basePath = new URL(import.meta.url).pathname.replace(/\/[^/]*$/, '');

registerSitePageTools({ basePath }).catch((error: unknown) => {
  console.error('agentready: the page could not register its tools', error);
});
