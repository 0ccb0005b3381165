/**
 * @module
 * The pager under the /events results: Previous, "Page n of m" and Next, as
 * links to the same search's other pages (`/events?…&page=2`), so they work
 * without the script; with it, the page loads the other page in place.
 */
import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import type { EventSearchResult } from '../api-shapes.ts';
import type { EventSearchFilters } from '../../domain/search-filters.ts';
import { filtersToSearchParams } from '../search-filters.ts';
import { SEARCH_PAGE_MAX } from '../../domain/search-limits.ts';

/** The /events address of a search (its filters and page). */
export function eventsSearchPath(filters: EventSearchFilters): string {
  const query = filtersToSearchParams(filters).toString();
  return query === '' ? '/events' : `/events?${query}`;
}

/** Props of {@link ResultsPager}. */
export type ResultsPagerProps = {
  /** The filters of the search shown (its page is `result.page`). */
  filters: EventSearchFilters;
  result: EventSearchResult;
  /** A page link was followed with a plain click: its navigation is already prevented. */
  onPage(page: number): void;
};

/**
 * The pager; nothing when the result fits one page. A page past the last
 * (`?page=9` of 4) says so, and its first link goes to the last page. When
 * the matches were not all counted ("more than 1,000"), it says "Page 3 of
 * more than 100" and offers Next while pages come full.
 */
export function ResultsPager({ filters, result, onPage }: ResultsPagerProps) {
  if (!result.totalExact) return <UncountedPager filters={filters} result={result} onPage={onPage} />;
  const pages = Math.max(1, Math.ceil(result.total / Math.max(1, result.pageSize)));
  const pastTheEnd = result.page > pages;
  if (pages <= 1 && !pastTheEnd) return null;
  const link = (testId: string, page: number | null, rel: 'prev' | 'next', children: ComponentChildren) => (
    <PagerLink testId={testId} rel={rel} href={page === null ? null : eventsSearchPath({ ...filters, page })} onFollow={() => page !== null && onPage(page)}>
      {children}
    </PagerLink>
  );
  return (
    <nav class="pager" data-testid="pager" aria-label="Result pages">
      {link('pager-previous', result.page > 1 ? Math.min(result.page - 1, pages) : null, 'prev', pastTheEnd ? 'Last page' : 'Previous')}
      <span class="pager-position" data-testid="pager-position">
        {pastTheEnd ? `Past the last page (${pages})` : `Page ${result.page} of ${pages}`}
      </span>
      {link('pager-next', result.page < pages ? result.page + 1 : null, 'next', 'Next')}
    </nav>
  );
}

/** The pager of a result whose matches were counted up to a bound only. */
function UncountedPager({ filters, result, onPage }: ResultsPagerProps) {
  const counted = Math.ceil(result.total / Math.max(1, result.pageSize));
  const link = (testId: string, page: number | null, rel: 'prev' | 'next', children: ComponentChildren) => (
    <PagerLink testId={testId} rel={rel} href={page === null ? null : eventsSearchPath({ ...filters, page })} onFollow={() => page !== null && onPage(page)}>
      {children}
    </PagerLink>
  );
  const full = result.events.length === result.pageSize && result.page < SEARCH_PAGE_MAX;
  return (
    <nav class="pager" data-testid="pager" aria-label="Result pages">
      {link('pager-previous', result.page > 1 ? result.page - 1 : null, 'prev', 'Previous')}
      <span class="pager-position" data-testid="pager-position">{`Page ${result.page} of more than ${counted.toLocaleString('en')}`}</span>
      {link('pager-next', full ? result.page + 1 : null, 'next', 'Next')}
    </nav>
  );
}

/** A link to another page of results, or, without `href`, the same words shown as unavailable. */
function PagerLink({
  testId,
  rel,
  href,
  onFollow,
  children,
}: {
  testId: string;
  rel: 'prev' | 'next';
  href: string | null;
  onFollow(): void;
  children: ComponentChildren;
}) {
  if (href === null) {
    return (
      // biome-ignore lint/a11y/useValidAnchor: a pager link with nowhere to go stays in its place, announced as a disabled link (WAI-ARIA aria-disabled).
      <a class="button button-disabled" data-testid={testId} role="link" aria-disabled="true">
        {children}
      </a>
    );
  }
  function follow(event: TargetedMouseEvent<HTMLAnchorElement>): void {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onFollow();
  }
  return (
    <a class="button" data-testid={testId} href={href} rel={rel} onClick={follow}>
      {children}
    </a>
  );
}
