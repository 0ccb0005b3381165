/**
 * @module
 * `/events`: the search form, the result list with its pager, and a details
 * panel (hidden until used) where one event can be previewed and saved.
 */
import { LOCATIONS } from '../../vocabulary/locations.ts';
import type { EventDetail, EventSearchResult } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { renderEventCard } from '../event-card.ts';
import { renderEventDetails, type EventDetailsView } from '../event-details-view.ts';
import type { PageContext } from '../page-context.ts';
import type { EventsControls } from '../page-controls.ts';
import type { EventSearchFilters } from '../../domain/search-filters.ts';
import { filtersFromSearchParams, filtersToSearchParams } from '../search-filters.ts';

/**
 * Renders the events page and runs the search its URL describes (no query:
 * every event, first page). Searches from the form, the pager and
 * `showSearch` share one renderer, and only the latest one reaches the screen.
 */
export function renderEventsPage(context: PageContext): EventsControls {
  const { api, root, signal } = context;
  context.setTitle('Events');
  const searchedIds = new Set<string>();
  let currentFilters: EventSearchFilters = {};
  let searchInFlight: AbortController | null = null;
  let previewInFlight: AbortController | null = null;
  let shownEvent: { id: string; view: EventDetailsView } | null = null;

  const keyword = el('input', {
    testId: 'search-keyword',
    attrs: { id: 'search-keyword', name: 'keyword', type: 'search', autocomplete: 'off' },
  });
  const location = select('search-location', 'location', [
    ['', 'Any location'],
    ...LOCATIONS.map((entry): [string, string] => [entry.id, entry.name.en]),
  ]);
  const price = select('search-price', 'price', [
    ['', 'Any price'],
    ['free', 'Free'],
    ['paid', 'Paid'],
  ]);
  const level = select('search-level', 'level', [
    ['', 'Any level'],
    ['beginner', 'Beginner'],
    ['intermediate', 'Intermediate'],
    ['advanced', 'Advanced'],
  ]);
  const dateFrom = el('input', { testId: 'search-date-from', attrs: { id: 'search-date-from', name: 'date_from', type: 'date' } });
  const dateTo = el('input', { testId: 'search-date-to', attrs: { id: 'search-date-to', name: 'date_to', type: 'date' } });

  const form = el('form', { className: 'search-form', testId: 'search-form', attrs: { role: 'search' } }, [
    field('Keyword', keyword, 'field-wide'),
    field('Location', location),
    field('Price', price),
    field('Level', level),
    field('From', dateFrom),
    field('To', dateTo),
    el('div', { className: 'form-actions' }, [
      el('button', { className: 'button button-primary', testId: 'search-submit', attrs: { type: 'submit' } }, ['Search']),
      el('button', { className: 'button', testId: 'search-clear', attrs: { type: 'reset' } }, ['Clear']),
    ]),
  ]);

  const status = el('p', { className: 'results-status', testId: 'results-status', attrs: { role: 'status' } });
  const searchError = el('p', { className: 'message message-error', testId: 'search-error', attrs: { role: 'alert', hidden: true } });
  const list = el('ol', { className: 'event-list', testId: 'event-results', attrs: { 'aria-labelledby': 'results-heading' } });
  const pager = el('nav', { className: 'pager', testId: 'pager', attrs: { 'aria-label': 'Result pages', hidden: true } });
  const resultsHeading = el('h2', { attrs: { id: 'results-heading', tabindex: '-1' } }, ['Results']);
  const panelBody = el('div', { className: 'panel-body' });
  const panelError = el('p', { className: 'message message-error', testId: 'details-error', attrs: { role: 'alert', hidden: true } });
  const panel = el('aside', { className: 'details-panel', testId: 'details-panel', attrs: { 'aria-label': 'Event details', hidden: true } }, [
    el('div', { className: 'panel-header' }, [
      el('p', { className: 'panel-label' }, ['Preview']),
      el('button', {
        className: 'button button-small',
        testId: 'details-close',
        attrs: { type: 'button' },
        on: { click: hidePanel },
      }, ['Close']),
    ]),
    panelError,
    panelBody,
  ]);

  root.append(
    el('h1', {}, ['Events']),
    form,
    el('div', { className: 'events-layout' }, [
      el('section', { className: 'results', attrs: { 'aria-labelledby': 'results-heading' } }, [
        resultsHeading,
        status,
        searchError,
        list,
        pager,
      ]),
      panel,
    ]),
  );

  form.addEventListener('submit', function searchFromForm(event) {
    event.preventDefault();
    void runSearch(readForm());
  });
  form.addEventListener('reset', function clearSearch(event) {
    event.preventDefault();
    writeForm({});
    void runSearch({});
  });

  function readForm(): EventSearchFilters {
    const filters: Record<string, string> = {};
    const keywordValue = keyword.value.trim();
    if (keywordValue !== '') filters['keyword'] = keywordValue;
    if (location.value !== '') filters['location'] = location.value;
    if (price.value !== '') filters['price'] = price.value;
    if (level.value !== '') filters['level'] = level.value;
    if (dateFrom.value !== '') filters['date_from'] = dateFrom.value;
    if (dateTo.value !== '') filters['date_to'] = dateTo.value;
    return filters as EventSearchFilters;
  }

  function writeForm(filters: EventSearchFilters): void {
    keyword.value = filters.keyword ?? '';
    setSelect(location, filters.location ?? '');
    setSelect(price, filters.price ?? '');
    setSelect(level, filters.level ?? '');
    dateFrom.value = filters.date_from ?? '';
    dateTo.value = filters.date_to ?? '';
  }

  async function runSearch(filters: EventSearchFilters): Promise<void> {
    searchInFlight?.abort();
    const controller = new AbortController();
    searchInFlight = controller;
    const abortWithPage = () => controller.abort();
    signal.addEventListener('abort', abortWithPage, { once: true });
    list.setAttribute('aria-busy', 'true');
    status.textContent = 'Searching…';
    searchError.hidden = true;
    try {
      const answer = await api.searchEvents(filters, controller.signal);
      if (controller.signal.aborted) return;
      if (answer.ok) {
        showResult(filters, answer.data);
      } else {
        status.textContent = '';
        searchError.textContent = answer.error.message;
        searchError.hidden = false;
      }
    } catch {
      // Aborted: a newer search or a route change took over.
    } finally {
      signal.removeEventListener('abort', abortWithPage);
      if (searchInFlight === controller) {
        searchInFlight = null;
        list.removeAttribute('aria-busy');
      }
    }
  }

  function showResult(filters: EventSearchFilters, result: EventSearchResult): void {
    currentFilters = { ...filters };
    if (result.page > 1) currentFilters.page = result.page;
    else delete currentFilters.page;
    searchError.hidden = true;
    list.replaceChildren(
      ...result.events.map((event) => {
        searchedIds.add(event.id);
        return renderEventCard(event, {
          testId: 'event-result',
          actions: [
            el('button', {
              className: 'button button-small',
              testId: 'preview-button',
              attrs: { type: 'button', 'aria-label': `Preview ${event.title}` },
              on: { click: () => void preview(event.id) },
            }, ['Preview']),
          ],
        });
      }),
    );
    status.textContent = describeResult(result);
    renderPager(result);
    context.replaceQuery(filtersToSearchParams(currentFilters));
  }

  function renderPager(result: EventSearchResult): void {
    const pages = Math.max(1, Math.ceil(result.total / Math.max(1, result.pageSize)));
    const pastTheEnd = result.page > pages;
    pager.hidden = pages <= 1 && !pastTheEnd;
    const goTo = (page: number) => async () => {
      await runSearch({ ...currentFilters, page });
      resultsHeading.focus({ preventScroll: false });
    };
    pager.replaceChildren(
      el('button', {
        className: 'button',
        testId: 'pager-previous',
        attrs: { type: 'button', disabled: result.page <= 1 },
        on: { click: goTo(Math.min(result.page - 1, pages)) },
      }, [pastTheEnd ? 'Last page' : 'Previous']),
      el('span', { className: 'pager-position', testId: 'pager-position' }, [
        pastTheEnd ? `Past the last page (${pages})` : `Page ${result.page} of ${pages}`,
      ]),
      el('button', {
        className: 'button',
        testId: 'pager-next',
        attrs: { type: 'button', disabled: result.page >= pages },
        on: { click: goTo(result.page + 1) },
      }, ['Next']),
    );
  }

  async function preview(eventId: string): Promise<void> {
    previewInFlight?.abort();
    const controller = new AbortController();
    previewInFlight = controller;
    try {
      const answer = await api.getEvent(eventId, controller.signal);
      if (controller.signal.aborted || signal.aborted) return;
      if (answer.ok) {
        showEventDetails(answer.data.event);
      } else {
        panel.hidden = false;
        panelBody.replaceChildren();
        shownEvent = null;
        panelError.textContent = answer.error.message;
        panelError.hidden = false;
      }
    } catch {
      // Aborted by a newer preview.
    }
  }

  function showEventDetails(event: EventDetail): void {
    previewInFlight?.abort();
    const view = renderEventDetails(event, { api, heading: 'h2' });
    panelError.hidden = true;
    panelBody.replaceChildren(view.element);
    panel.hidden = false;
    shownEvent = { id: event.id, view };
    panel.scrollIntoView({ block: 'nearest' });
  }

  function hidePanel(): void {
    previewInFlight?.abort();
    panel.hidden = true;
    panelBody.replaceChildren();
    shownEvent = null;
  }

  const initial = filtersFromSearchParams(context.query);
  writeForm(initial);
  void runSearch(initial);

  return {
    showSearch(filters, result) {
      searchInFlight?.abort();
      searchInFlight = null;
      list.removeAttribute('aria-busy');
      writeForm(filters);
      showResult(filters, result);
    },
    searchedEventIds: () => new Set(searchedIds),
    showEventDetails,
    shownEventId: () => shownEvent?.id ?? null,
    markSaved(eventId) {
      if (shownEvent?.id === eventId) shownEvent.view.markSaved();
    },
  };
}

function describeResult(result: EventSearchResult): string {
  if (result.total === 0 || result.events.length === 0) {
    return result.noResultsReason ?? 'No events match these filters.';
  }
  const first = (result.page - 1) * result.pageSize + 1;
  const last = first + result.events.length - 1;
  const noun = result.total === 1 ? 'event' : 'events';
  return `${result.total} ${noun} found, showing ${first}–${last}.`;
}

function select(testId: string, name: string, options: ReadonlyArray<[value: string, label: string]>): HTMLSelectElement {
  return el(
    'select',
    { testId, attrs: { id: testId, name } },
    options.map(([value, label]) => el('option', { attrs: { value } }, [label])),
  );
}

/** Selects `value`, adding it as an option first when the list lacks it, so the form shows exactly what was searched. */
function setSelect(control: HTMLSelectElement, value: string): void {
  if (![...control.options].some((option) => option.value === value)) {
    control.append(el('option', { attrs: { value } }, [value]));
  }
  control.value = value;
}

function field(label: string, control: HTMLInputElement | HTMLSelectElement, className = ''): HTMLElement {
  return el('div', { className: `field ${className}`.trim() }, [el('label', { attrs: { for: control.id } }, [label]), control]);
}
