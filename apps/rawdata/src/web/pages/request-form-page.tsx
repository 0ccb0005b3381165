/**
 * @module The request form (`/request`): source tables picked from the
 * catalog, the project's intent, and the linked fields the rules drive
 * (requestFormView): the databases of the chosen environment, the schema the
 * database decides (read-only), housekeeping shown or hidden with why,
 * retention bounds, the sensitive-data notice and the de-identification
 * preview. Without a script, "Update" posts the form and the server shows it
 * again with the rules applied; the page's script asks the server for the
 * linked fields alone ({@link LinkedFields}, `POST /request/form-view`) on
 * every change. Nothing here decides a rule: it shows the view it is given.
 */
import type { FormFieldName, RequestFormFields, RequestFormView } from '../../domain/request-form.ts';
import { EvaluationSummary } from './evaluation-parts.tsx';

/** A catalog table as the picker lists it. */
export type CatalogEntry = { name: string; description: string; data_level: string; update_method: string; update_frequency: string; owner_unit: string };

/** What the request form page shows. */
export type RequestFormPageProps = {
  csrfToken: string;
  /** The fields as posted (or empty for a new form). */
  fields: RequestFormFields;
  view: RequestFormView;
  /** The catalog tables the picker lists (the search's matches, and every chosen table). */
  catalog: CatalogEntry[];
  /** The picker's search words, and how many tables matched. */
  search: { query: string; total: number };
  permissionGroups: ReadonlyArray<{ id: string; label: string; clearance: string }>;
  frequencies: readonly string[];
  /** Why the last Send was refused. */
  problem?: { message: string; field?: string };
};

/** The id of the part the script replaces with the server's fragment. */
export const LINKED_FIELDS_ID = 'linked-fields';

/** The value of a single field as posted (the first, when repeated). */
export function fieldText(fields: RequestFormFields, name: FormFieldName | 'table_query'): string {
  const value = fields[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** The values of a list field as posted (repeated, or one value separated by commas or spaces). */
export function fieldList(fields: RequestFormFields, name: FormFieldName): string[] {
  const value = fields[name];
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((entry) => entry.split(/[\s,]+/)).filter((entry) => entry.length > 0);
}

/** The whole form page. */
export function RequestFormPage(props: RequestFormPageProps) {
  const { csrfToken, view, problem } = props;
  return (
    <section>
      <h1>New data-copy request</h1>
      <p>
        Pick the source tables and say what the copy is for. The fields below follow the data platform's rules as you choose; nothing is sent until you press
        Send, and even then you review the draft before it goes anywhere.
      </p>
      {problem && (
        <p role="alert" class="problem" data-testid="form-problem">
          {problem.message}
        </p>
      )}
      <form method="post" action="/request" id="request-form" data-form-view="/request/form-view" novalidate>
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <TablePicker {...props} />
        <IntentFields {...props} />
        <div id={LINKED_FIELDS_ID} data-testid="linked-fields">
          <LinkedFields view={view} />
        </div>
        <p role="status" class="form-status" id="form-view-status" />
        <div class="form-actions">
          <button type="submit" name="action" value="update" class="secondary" data-testid="update-button">
            Update
          </button>{' '}
          <button type="submit" name="action" value="send" data-testid="send-button">
            Send
          </button>
        </div>
        <p class="hint">Update shows the form again with the rules applied to what you chose. Send makes a draft for you to review.</p>
      </form>
    </section>
  );
}

function TablePicker({ fields, catalog, search }: RequestFormPageProps) {
  const chosen = new Set(fieldList(fields, 'source_tables'));
  return (
    <fieldset class="table-picker">
      <legend>Source tables (at most 10)</legend>
      <label for="table-query">Search the catalog</label>
      <div class="search-row">
        <input id="table-query" type="search" name="table_query" value={search.query} aria-describedby="table-query-hint" data-testid="table-query" />{' '}
        <button type="submit" name="action" value="update" class="secondary">
          Search
        </button>
      </div>
      <p id="table-query-hint" class="hint">
        Words of a table's name, description or owning unit.{' '}
        {search.query === '' ? `All ${search.total} tables are listed.` : `${search.total} tables match; the ones you chose stay listed.`}
      </p>
      <ul class="table-choices" data-testid="table-choices">
        {catalog.map((table) => (
          <li key={table.name} data-search={`${table.name} ${table.description} ${table.owner_unit}`.toLowerCase()}>
            <label>
              <input type="checkbox" name="source_tables" value={table.name} checked={chosen.has(table.name)} /> <code>{table.name}</code>: {table.description}{' '}
              <span class="facts">
                ({table.data_level}, {table.update_method}, {table.update_frequency}; {table.owner_unit})
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function IntentFields({ fields, permissionGroups, frequencies }: RequestFormPageProps) {
  const targets = new Set(fieldList(fields, 'permission_targets'));
  const frequency = fieldText(fields, 'requested_frequency') || 'daily';
  return (
    <fieldset>
      <legend>The project</legend>
      <label for="project-name">Project name</label>
      <input id="project-name" name="project_name" maxLength={80} value={fieldText(fields, 'project_name')} data-testid="project-name" />
      <label for="reason">Why the project needs the data</label>
      <textarea id="reason" name="reason" maxLength={500} rows={3} value={fieldText(fields, 'reason')} data-testid="reason" />
      <label for="requested-frequency">How often to copy</label>
      <select id="requested-frequency" name="requested_frequency" data-testid="requested-frequency">
        {frequencies.map((value) => (
          <option key={value} value={value} selected={value === frequency}>
            {value}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Who may read the copy (permission groups)</legend>
        {permissionGroups.map((group) => (
          <label key={group.id}>
            <input type="checkbox" name="permission_targets" value={group.id} checked={targets.has(group.id)} /> {group.label}{' '}
            <span class="facts">
              ({group.id}, cleared for {group.clearance})
            </span>
          </label>
        ))}
      </fieldset>
    </fieldset>
  );
}

/**
 * The part of the form the rules drive, rendered from `view`: the same
 * markup on the whole page and in the fragment the script fetches.
 */
export function LinkedFields({ view }: { view: RequestFormView }) {
  return (
    <div class="linked-fields">
      <ChosenTables view={view} />
      <TargetFields view={view} />
      <HousekeepingFields view={view} />
      <SensitiveNotice view={view} />
      <DeidentificationPreview view={view} />
      <section aria-labelledby="form-evaluation-heading" data-testid="form-evaluation">
        <h2 id="form-evaluation-heading">What the rules say so far</h2>
        {view.evaluation ? (
          <EvaluationSummary evaluation={view.evaluation} />
        ) : (
          <p class="hint" data-testid="form-still-missing">
            Still to fill in before the rules can check the whole request: {view.problem?.message ?? 'pick at least one source table.'}
          </p>
        )}
      </section>
    </div>
  );
}

function ChosenTables({ view }: { view: RequestFormView }) {
  if (view.tables.length === 0) return <p class="hint">No source table chosen yet.</p>;
  return (
    <table data-testid="chosen-tables">
      <caption>Chosen tables</caption>
      <thead>
        <tr>
          <th scope="col">Table</th>
          <th scope="col">Data level</th>
          <th scope="col">Updated</th>
          <th scope="col">May be copied to</th>
        </tr>
      </thead>
      <tbody>
        {view.tables.map((table) => (
          <tr key={table.name}>
            <th scope="row">
              <code>{table.name}</code>
            </th>
            {table.known ? (
              <>
                <td>{table.data_level}</td>
                <td>
                  {table.update_frequency}, {table.update_method}
                </td>
                <td>{table.allowed_targets.join(', ')}</td>
              </>
            ) : (
              <td colSpan={3}>Not in the source catalog.</td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TargetFields({ view }: { view: RequestFormView }) {
  const { environment, database } = view;
  return (
    <fieldset data-testid="target-fields">
      <legend>Where the copy goes</legend>
      <label for="target-environment">Target environment</label>
      <select id="target-environment" name="target_environment" data-testid="target-environment">
        <option value="" selected={environment.selected === null}>
          Let the rules choose
        </option>
        {environment.options.map((option) => (
          <option key={option.id} value={option.id} selected={option.id === environment.selected}>
            {option.label}
            {option.accepts_every_table ? '' : ' (cannot hold every chosen table)'}
          </option>
        ))}
      </select>
      <label for="target-database">Target database</label>
      {environment.selected === null ? (
        <select id="target-database" name="target_database" disabled aria-describedby="target-database-hint" data-testid="target-database">
          <option value="">Choose an environment first</option>
        </select>
      ) : (
        <select id="target-database" name="target_database" aria-describedby="target-database-hint" data-testid="target-database">
          <option value="" selected={database.selected === null}>
            The environment's default ({database.recommended})
          </option>
          {database.options.map((option) => (
            <option key={option.name} value={option.name} selected={option.name === database.selected}>
              {option.name}
            </option>
          ))}
        </select>
      )}
      <p id="target-database-hint" class="hint">
        Choosing an environment lists its databases.
      </p>
      <label for="target-schema">Target schema (the database decides it; rule RD-TARGET-SCHEMA)</label>
      <input id="target-schema" readOnly value={database.schema ?? ''} placeholder="set by the database" data-testid="target-schema" />
    </fieldset>
  );
}

function HousekeepingFields({ view }: { view: RequestFormView }) {
  const { retention, housekeeping } = view;
  const skipped = housekeeping.filter((entry) => !entry.visible);
  if (!retention.shown) {
    if (housekeeping.length === 0) return null;
    return (
      <section aria-labelledby="housekeeping-heading" data-testid="housekeeping-hidden">
        <h2 id="housekeeping-heading">Housekeeping</h2>
        <p>No housekeeping section for this request:</p>
        <HousekeepingReasons entries={skipped} />
        {/* What the person chose is kept while the section is hidden, so a change back brings it back. */}
        {retention.value !== null && <input type="hidden" name="retention_months" value={String(retention.value)} />}
      </section>
    );
  }
  return (
    <fieldset data-testid="housekeeping-section">
      <legend>Housekeeping</legend>
      <label for="retention-months">
        Keep the copy's rows for (months, {retention.min} to {retention.max})
      </label>
      <input
        id="retention-months"
        type="number"
        name="retention_months"
        min={retention.min}
        max={retention.max}
        step={1}
        value={retention.value === null ? '' : String(retention.value)}
        placeholder={String(retention.default)}
        aria-describedby="retention-hint"
        data-testid="retention-months"
      />
      <p id="retention-hint" class="hint">
        Leave it empty for the default of {retention.default} months (rule RD-RETENTION).
      </p>
      <ul>
        {housekeeping
          .filter((entry) => entry.visible)
          .map((entry) => (
            <li key={entry.table}>
              <code>{entry.table}</code>: {entry.reason} ({entry.rule})
            </li>
          ))}
      </ul>
      {skipped.length > 0 && <HousekeepingReasons entries={skipped} />}
    </fieldset>
  );
}

function HousekeepingReasons({ entries }: { entries: RequestFormView['housekeeping'] }) {
  return (
    <ul data-testid="housekeeping-reasons">
      {entries.map((entry) => (
        <li key={entry.table}>
          No housekeeping for <code>{entry.table}</code>: {entry.reason} ({entry.rule})
        </li>
      ))}
    </ul>
  );
}

function SensitiveNotice({ view }: { view: RequestFormView }) {
  if (!view.sensitive_notice.shown) return null;
  return (
    <section aria-labelledby="sensitive-heading" class="notice" data-testid="sensitive-notice">
      <h2 id="sensitive-heading">Sensitive data</h2>
      <p>{view.sensitive_notice.text}</p>
      <p>You confirm this yourself on the review page, after you send the form.</p>
    </section>
  );
}

function DeidentificationPreview({ view }: { view: RequestFormView }) {
  if (view.deidentification_preview.length === 0) return null;
  return (
    <table data-testid="deidentification-preview">
      <caption>De-identification (rule RD-DEIDENTIFY)</caption>
      <thead>
        <tr>
          <th scope="col">Table</th>
          <th scope="col">Column</th>
          <th scope="col">Identifier</th>
          <th scope="col">Method</th>
          <th scope="col">Copied as</th>
        </tr>
      </thead>
      <tbody>
        {view.deidentification_preview.map((entry) => (
          <tr key={`${entry.table}.${entry.column}`}>
            <td>
              <code>{entry.table}</code>
            </td>
            <td>
              <code>{entry.column}</code>
            </td>
            <td>{entry.identifier_type}</td>
            <td>{entry.method}</td>
            <td>{entry.expression === null ? 'not copied' : <code>{entry.expression}</code>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
