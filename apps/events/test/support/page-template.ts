/**
 * @module A stand-in for the built client's `index.html`, for tests that run
 * the server without building the client: the three slots the server fills
 * (page-routes.tsx) and a script tag that names a test asset.
 */

/** An `index.html` with the `<!--page-head-->`, `<!--page-body-->` and `<!--page-data-->` slots. */
export const PAGE_TEMPLATE_FIXTURE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--page-head--><script type="module" src="/assets/app.js"></script></head><body><div id="site"><!--page-body--></div><!--page-data--></body></html>';
