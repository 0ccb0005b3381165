/**
 * @module
 * The state of the /events page, as hooks: the search on screen (with the
 * one in flight, and every event ID a search showed), the preview panel, and
 * whether the layout puts the panel beside the list.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EventDetail, EventSearchResult } from '../api-shapes.ts';
import type { EventSearchFilters } from '../../domain/search-filters.ts';
import type { PreviewState } from '../components/event-preview-panel.tsx';
import type { ShownSearch } from '../components/search-results.tsx';
import type { EventsPageData } from '../page-data.ts';
import { useLeaveSignal, useNextCommit, usePageSite } from '../page-hooks.ts';
import { filtersToSearchParams } from '../search-filters.ts';

/** What {@link useEventSearch} gives the page. */
export type EventSearchState = {
  search: ShownSearch;
  /** A search is in flight. */
  busy: boolean;
  /** Every event ID a search showed in this visit, the server-rendered first one included. */
  searchedIds: { readonly current: ReadonlySet<string> };
  /** Searches with these filters; resolves true once its result (or refusal) is on screen, false when a newer search took over. */
  run(filters: EventSearchFilters): Promise<boolean>;
  /** Shows a result found elsewhere (the search tool), dropping any search in flight; resolves once it is on screen. */
  showResult(filters: EventSearchFilters, result: EventSearchResult): Promise<void>;
};

/**
 * The search on screen, starting from the one the server rendered. Only the
 * latest search reaches the screen; leaving the page drops the one in
 * flight. Every search shown (result or refusal) calls `onShown` in the same
 * render, and then rewrites the URL's query to it, so Back and reload give the
 * same page.
 */
export function useEventSearch(data: EventsPageData, onShown: () => void): EventSearchState {
  const site = usePageSite();
  const committed = useNextCommit();
  const left = useLeaveSignal();
  const [search, setSearch] = useState<ShownSearch>({ filters: data.filters, outcome: data.search });
  const [busy, setBusy] = useState(false);
  const searchedIds = useRef(new Set(data.search.ok ? data.search.result.events.map((event) => event.id) : []));
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);

  async function show(shown: ShownSearch): Promise<void> {
    if (shown.outcome.ok) for (const event of shown.outcome.result.events) searchedIds.current.add(event.id);
    setSearch(shown);
    setBusy(false);
    onShown();
    await committed();
    // A page left meanwhile no longer owns the URL: the next page's query is not this search's.
    if (!left.aborted) site.replaceQuery(filtersToSearchParams(shown.filters));
  }

  async function run(filters: EventSearchFilters): Promise<boolean> {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setBusy(true);
    try {
      const answer = await site.api.searchEvents(filters, controller.signal);
      if (controller.signal.aborted) return false;
      inFlight.current = null;
      await show(
        answer.ok
          ? { filters: onPage(filters, answer.data.page), outcome: { ok: true, result: answer.data } }
          : { filters, outcome: { ok: false, error: answer.error } },
      );
      return true;
    } catch {
      // Aborted: a newer search, or leaving the page, took over.
      return false;
    }
  }

  function showResult(filters: EventSearchFilters, result: EventSearchResult): Promise<void> {
    inFlight.current?.abort();
    inFlight.current = null;
    return show({ filters: onPage(filters, result.page), outcome: { ok: true, result } });
  }

  return { search, busy, searchedIds, run, showResult };
}

/** The filters with the page a result is on (page 1 left out, as the URL leaves it out). */
function onPage(filters: EventSearchFilters, page: number): EventSearchFilters {
  const { page: _asked, ...rest } = filters;
  return page > 1 ? { ...rest, page } : rest;
}

/** What {@link usePreviewPanel} gives the page. */
export type PreviewPanelState = {
  /** The open panel, or null when it is closed. */
  preview: PreviewState | null;
  /** A person pressed Preview: opens the panel on this event and loads its details. */
  open(eventId: string): Promise<void>;
  /** Opens the panel on these details (the event tool), without moving the focus. */
  show(event: EventDetail): void;
  close(): void;
  /** Shows the event as saved when it is the one in the panel. */
  markSaved(eventId: string): void;
};

/** The preview panel: closed at first; only the latest Preview's details reach it. */
export function usePreviewPanel(): PreviewPanelState {
  const site = usePageSite();
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const loading = useRef<AbortController | null>(null);
  useEffect(() => () => loading.current?.abort(), []);

  async function open(eventId: string): Promise<void> {
    loading.current?.abort();
    const controller = new AbortController();
    loading.current = controller;
    setPreview({ eventId, event: null, error: null, openedBy: 'person' });
    try {
      const answer = await site.api.getEvent(eventId, controller.signal);
      if (controller.signal.aborted) return;
      loading.current = null;
      setPreview(
        answer.ok
          ? { eventId, event: answer.data.event, error: null, openedBy: 'person' }
          : { eventId, event: null, error: answer.error.message, openedBy: 'person' },
      );
    } catch {
      // Aborted: another Preview, Close, or a new search took over.
    }
  }

  function stopLoading(): void {
    loading.current?.abort();
    loading.current = null;
  }

  return {
    preview,
    open,
    show(event) {
      stopLoading();
      setPreview({ eventId: event.id, event, error: null, openedBy: 'tool' });
    },
    close() {
      stopLoading();
      setPreview(null);
    },
    markSaved(eventId) {
      setPreview((current) => (current?.event?.id === eventId ? { ...current, event: { ...current.event, saved: true } } : current));
    },
  };
}

/** The width from which styles.css puts the preview panel beside the list (its `min-width: 60rem` rule). */
const SIDE_BY_SIDE_QUERY = '(min-width: 60rem)';

/**
 * Whether the panel goes beside the list (a wide screen) rather than into
 * it, under the previewed card (a narrow one), following the window's width.
 * False on the server, where the panel is never open.
 */
export function useSideBySideLayout(): boolean {
  const [sideBySide, setSideBySide] = useState(() => typeof window !== 'undefined' && window.matchMedia(SIDE_BY_SIDE_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(SIDE_BY_SIDE_QUERY);
    const follow = () => setSideBySide(query.matches);
    follow();
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return sideBySide;
}
