/**
 * @module
 * The /events search form's fields: their labels and choices, the values the
 * form shows for a search's filters, the filters a filled-in form asks for,
 * and a refused search said in the form's own words (the label of the field
 * at fault, never the parameter's name or the schema's wording).
 */
import type { ApiFailure } from './api-client.ts';
import type { EventSearchFilters } from '../domain/search-filters.ts';
import { KEYWORD_MAX_LENGTH, SEARCH_PAGE_MAX } from '../domain/search-limits.ts';
import { PRICE_KINDS } from '../vocabulary/price-kinds.ts';
import { EVENT_LEVELS } from '../vocabulary/event-levels.ts';
import { LOCATIONS } from '../vocabulary/locations.ts';
import { formatLevel } from './event-format.ts';

/** The form's fields by the filter each one sets (the names of `GET /api/events`' parameters). */
export type SearchFieldName = 'keyword' | 'location' | 'price' | 'level' | 'date_from' | 'date_to';

/** What each field shows: a string, `''` for "any". */
export type SearchFormValues = Record<SearchFieldName, string>;

/** One choice of a select: its value (`''` for "any") and what it says. */
export type SearchChoice = { value: string; label: string };

/** The label, element ID (also its `data-testid`) and, for a select, the choices of each field, in the form's order. */
export const SEARCH_FIELDS: ReadonlyArray<{ name: SearchFieldName; label: string; id: string; choices?: readonly SearchChoice[] }> = [
  { name: 'keyword', label: 'Keyword', id: 'search-keyword' },
  {
    name: 'location',
    label: 'Location',
    id: 'search-location',
    choices: [{ value: '', label: 'Any location' }, ...LOCATIONS.map((location) => ({ value: location.id, label: location.name.en }))],
  },
  {
    name: 'price',
    label: 'Price',
    id: 'search-price',
    choices: [{ value: '', label: 'Any price' }, ...PRICE_KINDS.map((kind) => ({ value: kind, label: kind === 'free' ? 'Free' : 'Paid' }))],
  },
  {
    name: 'level',
    label: 'Level',
    id: 'search-level',
    choices: [{ value: '', label: 'Any level' }, ...EVENT_LEVELS.map((level) => ({ value: level, label: formatLevel(level) }))],
  },
  { name: 'date_from', label: 'From', id: 'search-date-from' },
  { name: 'date_to', label: 'To', id: 'search-date-to' },
];

const EMPTY_VALUES: SearchFormValues = { keyword: '', location: '', price: '', level: '', date_from: '', date_to: '' };

/** A form with every field on "any". */
export function emptyFormValues(): SearchFormValues {
  return { ...EMPTY_VALUES };
}

/**
 * What the form shows for these filters (a URL's, or the search tool's). A
 * select shows only one of its own choices: a value it does not offer (a
 * `?location=mars` in the URL) shows as "any", and the search's refusal names
 * the field. A date shows only when it is a calendar date, as a date input
 * would drop anything else.
 */
export function formValuesFromFilters(filters: EventSearchFilters): SearchFormValues {
  const values = emptyFormValues();
  for (const field of SEARCH_FIELDS) {
    const value = filters[field.name];
    if (value === undefined) continue;
    if (field.choices !== undefined && !field.choices.some((choice) => choice.value === value)) continue;
    if ((field.name === 'date_from' || field.name === 'date_to') && !isCalendarDate(value)) continue;
    values[field.name] = value;
  }
  return values;
}

/** The filters a filled-in form asks for: the keyword trimmed, fields on "any" left out, first page. */
export function filtersFromFormValues(values: SearchFormValues): EventSearchFilters {
  const filters: Record<string, string> = {};
  for (const field of SEARCH_FIELDS) {
    const value = field.name === 'keyword' ? values.keyword.trim() : values[field.name];
    if (value !== '') filters[field.name] = value;
  }
  return filters as EventSearchFilters;
}

/** A refused search as the page says it: the field at fault (null when it is none of the form's) and a sentence for a person. */
export type SearchRefusal = { field: SearchFieldName | null; message: string };

/**
 * Says why a search was refused in the form's terms. An INVALID_INPUT names
 * the field by its label with the rule it breaks (the rules of
 * domain/search-filters.ts); a reversed range is "To must be on or after
 * From." Any other refusal (the site unreachable, say) keeps the server's
 * message, which is already written for people.
 *
 * @param filters the filters that were searched, to tell a reversed range from a date that is not one.
 */
export function describeSearchRefusal(error: ApiFailure, filters: EventSearchFilters): SearchRefusal {
  if (error.code !== 'INVALID_INPUT') return { field: null, message: error.message };
  switch (error.field) {
    case 'keyword':
      return { field: 'keyword', message: `Keyword must be one line of at most ${KEYWORD_MAX_LENGTH} visible characters.` };
    case 'location':
    case 'price':
    case 'level':
      return { field: error.field, message: `${labelOf(error.field)} must be one of the choices in its list.` };
    case 'date_from':
      return { field: 'date_from', message: 'From must be a date, such as 2027-01-31.' };
    case 'date_to':
      return isReversed(filters)
        ? { field: 'date_to', message: 'To must be on or after From.' }
        : { field: 'date_to', message: 'To must be a date, such as 2027-01-31.' };
    case 'page':
      return { field: null, message: `The page in the address must be a whole number from 1 to ${SEARCH_PAGE_MAX}.` };
    default:
      return { field: null, message: 'This search could not be run. Clear it and search again.' };
  }
}

function labelOf(name: SearchFieldName): string {
  return SEARCH_FIELDS.find((field) => field.name === name)?.label ?? name;
}

function isReversed(filters: EventSearchFilters): boolean {
  const { date_from: from, date_to: to } = filters;
  return from !== undefined && to !== undefined && isCalendarDate(from) && isCalendarDate(to) && to < from;
}

/** `YYYY-MM-DD` naming a day that exists (2027-02-30 does not). */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
