/**
 * @module
 * The /events search form: keyword, location, price, level and a date range.
 * It is a plain `GET /events` form, so it works before (or without) the
 * script; the page's handlers take over submit and Clear once it runs.
 */
import type { TargetedEvent, TargetedMouseEvent, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { SEARCH_FIELDS, type SearchFieldName, type SearchFormValues } from '../search-form-values.ts';

/** Props of {@link SearchForm}. */
export type SearchFormProps = {
  values: SearchFormValues;
  /** The field a refused search blames, marked `aria-invalid` and described by `errorId`; null when none is. */
  invalidField: SearchFieldName | null;
  /** The ID of the element saying why the search was refused. */
  errorId: string;
  /** A field changed (also for what the person typed or chose before the script ran, once it does). */
  onChange(name: SearchFieldName, value: string): void;
  /** Search was pressed (or Enter in a field): the default GET is already prevented. */
  onSearch(): void;
  /** Clear was pressed: the link to `/events` is already prevented. */
  onClear(): void;
};

/**
 * The form, `role="search"`. Without the script Search loads
 * `/events?keyword=…` and Clear is a link to `/events`; with it, both call
 * the page's handlers and nothing reloads. What the person typed or chose
 * in the server's form before the script ran is kept: the script takes it
 * over as the form's values (`onChange`) instead of putting back the ones
 * the server rendered.
 */
export function SearchForm({ values, invalidField, errorId, onChange, onSearch, onClear }: SearchFormProps) {
  const form = useRef<HTMLFormElement>(null);
  useAdoptEarlyInput(form, values, onChange);
  function submit(event: TargetedSubmitEvent<HTMLFormElement>): void {
    event.preventDefault();
    onSearch();
  }
  function clear(event: TargetedMouseEvent<HTMLAnchorElement>): void {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onClear();
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a GET form is the search landmark itself; wrapping it in <search> would add a second element for the same landmark.
    <form ref={form} class="search-form" data-testid="search-form" role="search" aria-label="Search events" method="get" action="/events" onSubmit={submit}>
      {SEARCH_FIELDS.map((field) => {
        const invalid = field.name === invalidField;
        const common = {
          id: field.id,
          name: field.name,
          'data-testid': field.id,
          'aria-invalid': invalid ? ('true' as const) : undefined,
          'aria-describedby': invalid ? errorId : undefined,
          value: values[field.name],
          onInput: (event: TargetedEvent<HTMLInputElement | HTMLSelectElement>) => onChange(field.name, event.currentTarget.value),
        };
        return (
          <div key={field.name} class={field.name === 'keyword' ? 'field field-wide' : 'field'}>
            <label for={field.id}>{field.label}</label>
            {field.choices !== undefined ? (
              <select {...common}>
                {field.choices.map((choice) => (
                  <option key={choice.value} value={choice.value} selected={choice.value === values[field.name]}>
                    {choice.label}
                  </option>
                ))}
              </select>
            ) : field.name === 'keyword' ? (
              <input {...common} type="search" autocomplete="off" />
            ) : (
              <input {...common} type="date" />
            )}
          </div>
        );
      })}
      <div class="form-actions">
        <button class="button button-primary" data-testid="search-submit" type="submit">
          Search
        </button>
        <a class="button" data-testid="search-clear" href="/events" onClick={clear}>
          Clear
        </a>
      </div>
    </form>
  );
}

/**
 * On the first effect after hydration, reads each field's value in the DOM
 * (what the person typed or chose while the script loaded) and passes on
 * those that differ from the values rendered, as register-page.tsx does for
 * the name and e-mail.
 */
function useAdoptEarlyInput(
  form: { current: HTMLFormElement | null },
  rendered: SearchFormValues,
  onChange: (name: SearchFieldName, value: string) => void,
): void {
  useEffect(() => {
    for (const field of SEARCH_FIELDS) {
      const control = form.current?.elements.namedItem(field.name);
      if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) continue;
      if (control.value !== rendered[field.name]) onChange(field.name, control.value);
    }
  }, []);
}
