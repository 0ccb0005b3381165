/**
 * @module
 * The event search filters in their form as a URL query
 * (the same parameter names as `GET /api/events`).
 */
import type { EventSearchFilters } from '../domain/search-filters.ts';

const FILTER_KEYS = ['keyword', 'location', 'price', 'level', 'date_from', 'date_to'] as const;

/**
 * Writes the filters as query parameters, leaving out empty ones and page 1.
 * The result is what `GET /api/events` expects and what the /events URL keeps.
 */
export function filtersToSearchParams(filters: EventSearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  if (filters.page !== undefined && filters.page > 1) params.set('page', String(filters.page));
  return params;
}

/**
 * Reads filters back from a query string. Values are taken as they are (the
 * server validates them); an unparsable page is left out.
 */
export function filtersFromSearchParams(params: URLSearchParams): EventSearchFilters {
  const filters: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '') filters[key] = value;
  }
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) filters['page'] = page;
  return filters as EventSearchFilters;
}
