/**
 * @module The request form's enhancement, bundled by Vite into
 * dist/web/assets/request-form.js. The form works without it (Update posts
 * the whole form). With it: every change of a field asks the server for the
 * linked fields the rules drive (`POST` to the form's `data-form-view`,
 * the same fields the form would post) and puts the HTML it answers in
 * place, keeping focus on the field that had it; the catalog search filters
 * the listed tables as the person types, keeping every chosen one listed.
 * No rule is decided here.
 */

/** The ids and attributes the server's markup gives the form (request-form-page.tsx). */
const LINKED_FIELDS_ID = 'linked-fields';
const STATUS_ID = 'form-view-status';
const SEARCH_ID = 'table-query';

/** Fields whose change does not touch the linked fields. */
const IGNORED_FIELDS: ReadonlySet<string> = new Set(['table_query', 'project_name', 'reason']);

/**
 * Enhances the request form: the linked fields follow each change, the
 * search filters the table list. Marks the form `data-enhanced="true"`.
 */
export function enhanceRequestForm(form: HTMLFormElement): void {
  const linked = document.getElementById(LINKED_FIELDS_ID);
  const status = document.getElementById(STATUS_ID);
  const endpoint = form.dataset['formView'];
  if (!linked || !status || !endpoint) return;
  let sequence = 0;
  form.addEventListener('change', (event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement) || IGNORED_FIELDS.has(field.name)) return;
    sequence += 1;
    void showLinkedFields({
      form,
      linked,
      status,
      endpoint,
      isLatest: (
        (mine) => () =>
          mine === sequence
      )(sequence),
    });
  });
  const search = document.getElementById(SEARCH_ID);
  if (search instanceof HTMLInputElement) {
    search.addEventListener('input', () => filterTables(form, search.value));
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') event.preventDefault();
    });
  }
  form.dataset['enhanced'] = 'true';
}

type Refresh = { form: HTMLFormElement; linked: HTMLElement; status: HTMLElement; endpoint: string; isLatest: () => boolean };

async function showLinkedFields({ form, linked, status, endpoint, isLatest }: Refresh): Promise<void> {
  const body = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.append(name, value);
  status.textContent = 'Updating the fields that follow your choice…';
  try {
    const response = await fetch(endpoint, { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(`The server answered ${response.status}.`);
    const html = await response.text();
    if (!isLatest()) return;
    const focusedId = document.activeElement instanceof HTMLElement && linked.contains(document.activeElement) ? document.activeElement.id : '';
    linked.innerHTML = html;
    if (focusedId !== '') document.getElementById(focusedId)?.focus();
    status.textContent = 'The fields that follow your choice are up to date.';
  } catch {
    if (isLatest()) status.textContent = 'The fields that follow your choice could not be updated; press Update.';
  }
}

/** Shows the listed tables whose words contain every word of `query`, and every chosen table. */
function filterTables(form: HTMLFormElement, query: string): void {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  for (const item of form.querySelectorAll<HTMLElement>('[data-search]')) {
    const chosen = item.querySelector<HTMLInputElement>('input[type=checkbox]')?.checked ?? false;
    const text = item.dataset['search'] ?? '';
    item.hidden = !chosen && !words.every((word) => text.includes(word));
  }
}

const requestForm = document.getElementById('request-form');
if (requestForm instanceof HTMLFormElement) enhanceRequestForm(requestForm);
