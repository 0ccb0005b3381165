/**
 * @module
 * A page still built with DOM calls, mounted inside the component tree: it
 * renders nothing on the server, and builds itself into its container in the
 * browser, loading its own data.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { PageContext } from './page-context.ts';
import type { RouteControls, RouteName } from './page-controls.ts';
import { documentTitle } from './page-data.ts';
import { PageVisitContext, usePageSite } from './page-hooks.ts';
import { useContext } from 'preact/hooks';

/** Mounts `render(context)` for route `name` and announces the controls it returns. */
export function LegacyPage<N extends RouteName>({ name, render }: { name: N; render(context: PageContext): RouteControls[N] }) {
  const site = usePageSite();
  const { route, announce } = useContext(PageVisitContext);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = root.current;
    if (container === null) return;
    const leave = new AbortController();
    const controls = render({
      root: container,
      params: route.params,
      query: new URLSearchParams(window.location.search),
      api: site.api,
      signal: leave.signal,
      navigate: (path) => void site.navigate(path),
      replaceQuery: (query) => {
        if (!leave.signal.aborted) site.replaceQuery(query);
      },
      setTitle: (title) => {
        document.title = documentTitle({ title, description: '' });
      },
    });
    announce([route, controls] as Parameters<typeof announce>[0]);
    return () => leave.abort();
  }, []);
  return <div ref={root} />;
}
