/**
 * @module
 * `/events`: the search form, the results with their pager, and a preview
 * panel where one event can be read and saved without leaving the list.
 * The server renders the search its URL asks for; the script then searches
 * in place and keeps the URL in step.
 */
import { useState } from 'preact/hooks';
import { EventPreviewPanel } from '../components/event-preview-panel.tsx';
import { SearchForm } from '../components/search-form.tsx';
import { SearchResults } from '../components/search-results.tsx';
import type { EventsPageData } from '../page-data.ts';
import { useEnhanced, useLatest, useNextCommit, useRouteControls } from '../page-hooks.ts';
import { describeSearchRefusal, emptyFormValues, filtersFromFormValues, formValuesFromFilters, type SearchFormValues } from '../search-form-values.ts';
import { useEventSearch, usePreviewPanel, useSideBySideLayout, type EventSearchState, type PreviewPanelState } from './events-page-state.ts';

const SEARCH_ERROR_ID = 'search-error';

/**
 * The events page.
 *
 * A new search, from the form, the pager, Clear or the search tool, closes
 * the preview panel whatever it shows: the panel belongs to the list it was
 * opened from, and a preview left open beside a new list would pass for one
 * of its results.
 *
 * On a wide screen the panel sits beside the list; on a narrow one it opens
 * under the card whose Preview was pressed, where the person is looking.
 * A person's Preview moves the focus to the panel's heading; Close or Escape
 * (also while the details are still loading) closes it and returns the focus
 * to that Preview button.
 *
 * Its controls (page-controls.ts, `EventsControls`) let the tools show a
 * search and open, read and mark the event in the panel.
 */
export function EventsPage({ data }: { data: EventsPageData }) {
  const [values, setValues] = useState<SearchFormValues>(() => formValuesFromFilters(data.filters));
  const enhanced = useEnhanced();
  const panel = usePreviewPanel();
  const searching = useEventSearch(data, function closePanelForNewSearch() {
    // The panel goes: a focus inside it moves to the results first, not to the page's start.
    if (document.activeElement?.closest('[data-testid="details-panel"]')) focusResultsHeading();
    panel.close();
  });
  const sideBySide = useSideBySideLayout();
  const committed = useNextCommit();
  const latest = useLatest({ panel, searching });
  useEventsControls(latest, setValues, committed);

  const { search } = searching;
  const refusal = search.outcome.ok ? null : describeSearchRefusal(search.outcome.error, search.filters);
  const preview = panel.preview;

  function closePreview(): void {
    const button = preview === null ? null : previewButton(preview.eventId);
    if (button !== null) button.focus();
    else focusResultsHeading();
    panel.close();
  }

  async function goToPage(page: number): Promise<void> {
    if (await searching.run({ ...search.filters, page })) focusResultsHeading();
  }

  const panelElement = preview === null ? null : <EventPreviewPanel preview={preview} onClose={closePreview} />;
  return (
    <>
      <h1>Events</h1>
      <SearchForm
        values={values}
        invalidField={refusal?.field ?? null}
        errorId={SEARCH_ERROR_ID}
        onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
        onSearch={() => void searching.run(filtersFromFormValues(values))}
        onClear={() => {
          setValues(emptyFormValues());
          void searching.run({});
        }}
      />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the list and preview closes the preview; the keys reach this wrapper from the controls inside it. */}
      <div
        class="events-layout"
        onKeyDown={(event) => {
          // Escape closes a preview still loading too, while the focus is still on the Preview pressed (the panel handles its own).
          if (event.key !== 'Escape' || event.defaultPrevented || preview === null) return;
          event.preventDefault();
          closePreview();
        }}
      >
        <SearchResults
          search={search}
          refusalMessage={refusal?.message ?? null}
          errorId={SEARCH_ERROR_ID}
          busy={searching.busy}
          enhanced={enhanced}
          previewedId={preview?.eventId ?? null}
          inlinePanel={sideBySide ? null : panelElement}
          onPreview={(eventId) => void panel.open(eventId)}
          onPage={(page) => void goToPage(page)}
        />
        {sideBySide && panelElement}
      </div>
    </>
  );
}

/** Announces the page's controls; they read the page's latest state through `latest`. */
function useEventsControls(
  latest: { readonly current: { panel: PreviewPanelState; searching: EventSearchState } },
  setValues: (values: SearchFormValues) => void,
  committed: () => Promise<void>,
): void {
  useRouteControls('events', {
    async showSearch(filters, result) {
      setValues(formValuesFromFilters(filters));
      await latest.current.searching.showResult(filters, result);
    },
    searchedEventIds: () => new Set(latest.current.searching.searchedIds.current),
    async showEventDetails(event) {
      latest.current.panel.show(event);
      await committed();
    },
    shownEventId: () => latest.current.panel.preview?.event?.id ?? null,
    async markSaved(eventId) {
      latest.current.panel.markSaved(eventId);
      await committed();
    },
  });
}

function previewButton(eventId: string): HTMLElement | null {
  const card = [...document.querySelectorAll<HTMLElement>('[data-testid="event-result"]')].find((item) => item.dataset['eventId'] === eventId);
  return card?.querySelector<HTMLElement>('[data-testid="preview-button"]') ?? null;
}

function focusResultsHeading(): void {
  document.getElementById('results-heading')?.focus();
}
