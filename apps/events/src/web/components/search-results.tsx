/**
 * @module
 * The results area of /events: the status line (how many events, or
 * "Searching…"), why a search was refused, the list of event cards with
 * their Preview buttons, and the pager.
 */
import type { ComponentChildren } from 'preact';
import type { ApiFailure } from '../api-client.ts';
import type { EventSearchResult } from '../api-shapes.ts';
import type { EventSearchFilters } from '../../domain/search-filters.ts';
import { EventCard } from './event-card.tsx';
import { ResultsPager } from './results-pager.tsx';

/** A search as the page shows it: the filters asked for, and the result or why it was refused. */
export type ShownSearch = {
  filters: EventSearchFilters;
  outcome: { ok: true; result: EventSearchResult } | { ok: false; error: ApiFailure };
};

/** Props of {@link SearchResults}. */
export type SearchResultsProps = {
  search: ShownSearch;
  /** The sentence saying why the search was refused (null for a result), shown with `id={errorId}`. */
  refusalMessage: string | null;
  errorId: string;
  /** A newer search is running: the list is marked busy and the status says so. */
  busy: boolean;
  /** Whether the script runs, so Preview can work (without it Preview is not offered). */
  enhanced: boolean;
  /** The event whose preview is open, or null. */
  previewedId: string | null;
  /**
   * The preview panel when it goes in the results (a narrow screen): under
   * the card of `previewedId`, or above the list when that card is not on it.
   */
  inlinePanel: ComponentChildren;
  onPreview(eventId: string): void;
  onPage(page: number): void;
};

/**
 * The results section. A refused search shows its reason and no list, so no
 * earlier result can pass for its answer.
 */
export function SearchResults(props: SearchResultsProps) {
  const { search, refusalMessage, errorId, busy, previewedId, inlinePanel } = props;
  const result = search.outcome.ok ? search.outcome.result : null;
  const panelInList = result !== null && result.events.some((event) => event.id === previewedId);
  return (
    <section class="results" aria-labelledby="results-heading">
      <h2 id="results-heading" tabIndex={-1}>
        Results
      </h2>
      <p class="results-status" data-testid="results-status" role="status">
        {busy ? 'Searching…' : result !== null ? describeResult(result) : ''}
      </p>
      <div role="alert" class="search-alert">
        {refusalMessage !== null && (
          <p id={errorId} class="message message-error" data-testid="search-error">
            {refusalMessage}
          </p>
        )}
      </div>
      {!panelInList && inlinePanel}
      {result !== null && (
        <ol class="event-list" data-testid="event-results" aria-labelledby="results-heading" aria-busy={busy ? 'true' : undefined}>
          {result.events.map((event) => (
            <EventCard
              key={event.id}
              event={event}
              testId="event-result"
              actions={
                <>
                  <button
                    type="button"
                    class="button button-small"
                    data-testid="preview-button"
                    aria-label={`Preview ${event.title}`}
                    aria-expanded={previewedId === event.id ? 'true' : 'false'}
                    hidden={!props.enhanced}
                    onClick={() => props.onPreview(event.id)}
                  >
                    Preview
                  </button>
                  {previewedId === event.id && inlinePanel}
                </>
              }
            />
          ))}
        </ol>
      )}
      {result !== null && <ResultsPager filters={search.filters} result={result} onPage={props.onPage} />}
    </section>
  );
}

/**
 * "12 events found, showing 1–10, best matches first.", "More than 1,000
 * events found, …" when they were not all counted, or why nothing was found.
 */
function describeResult(result: EventSearchResult): string {
  if (result.total === 0 || result.events.length === 0) {
    return result.noResultsReason ?? 'No events match these filters.';
  }
  const first = (result.page - 1) * result.pageSize + 1;
  const last = first + result.events.length - 1;
  const found = result.totalExact ? `${result.total} ${result.total === 1 ? 'event' : 'events'}` : `More than ${result.total.toLocaleString('en')} events`;
  const order = result.order === 'relevance' ? 'best matches first' : 'by start time';
  return `${found} found, showing ${first}–${last}, ${order}.`;
}
