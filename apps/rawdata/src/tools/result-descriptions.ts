/**
 * @module The sentence of key facts each Rawdata tool states in the text
 * content of its MCP results, for clients whose model reads the text rather
 * than `structuredContent`: the draft's version and status and what to do
 * with it, the application and its status. The MCP adapter adds the target,
 * the next tools and where the person confirms.
 */
import type { ResultDescriptions } from 'agentready/mcp';
import { MAX_CONTEXT_TABLES } from '../domain/table-context.ts';
import type { rawdataCatalog } from './catalog.ts';

type RawdataTool = (typeof rawdataCatalog.tools)[number];

type DraftFacts = {
  draft_id: string;
  draft_version: number;
  validation: { status: 'valid' | 'needs_input' | 'blocked'; issues: Array<{ message: string }> };
  needs_confirmation: Array<{ question: string }>;
  payload_preview: { items: Array<{ source_table: string }>; target: { environment: string; database: string; schema: string } | null };
};

/** A draft version in one paragraph: what it copies where, its status and what the agent does next. */
function draftFacts(data: DraftFacts): string {
  const tables = data.payload_preview.items.map((item) => item.source_table).join(', ');
  const target = data.payload_preview.target
    ? `${data.payload_preview.target.database}.${data.payload_preview.target.schema} (${data.payload_preview.target.environment})`
    : 'a target still to choose';
  const head = `Draft ${data.draft_id}, version ${data.draft_version}: copies ${tables} into ${target}.`;
  switch (data.validation.status) {
    case 'blocked':
      return `${head} Blocked: ${data.validation.issues.map((issue) => issue.message).join(' ')} Stop here and hand it to a person; no change of yours can unblock it.`;
    case 'needs_input':
      return `${head} It needs the person's input: ${[...data.validation.issues.map((issue) => issue.message), ...data.needs_confirmation.map((request) => request.question)].join(' ')}`;
    case 'valid':
      return `${head} Valid: the person reviews and confirms exactly this version on the site, then gives you a confirmation code to submit it with. Nothing is submitted yet.`;
  }
}

/** The facts of each Rawdata tool's `data`. */
export const rawdataResultDescriptions: ResultDescriptions<RawdataTool> = {
  dap_rawdata_get_context(data) {
    const unknown = data.unknown_tables.length > 0 ? ` No table is named ${data.unknown_tables.join(', ')}.` : '';
    if (data.tables.length === 0) return `No source table matched.${unknown}`;
    const tables = data.tables.map(
      (table) =>
        `${table.name} (${table.data_level}, ${table.update_frequency} ${table.update_method}, ${table.owner_unit}${table.blocked ? `; blocked: ${table.blocked.reason}` : `; targets ${table.allowed_targets.join('/')}`})`,
    );
    const more =
      data.tables.length >= MAX_CONTEXT_TABLES ? ` These are the first ${MAX_CONTEXT_TABLES} that match; more may: narrow with query or owner_unit.` : '';
    return `Found ${data.tables.length} source table(s) under metadata ${data.evidence.metadata_version} and ${data.evidence.rule_set}: ${tables.join('; ')}.${unknown}${more}`;
  },
  dap_rawdata_prepare_draft: (data) => draftFacts(data),
  dap_rawdata_revise_draft: (data) => draftFacts(data),
  dap_rawdata_submit_application(data) {
    return `Submitted application ${data.application_id} (project ${JSON.stringify(data.result_summary.project_name)}, ${data.result_summary.items.length} item(s)) at ${data.submitted_at}; its status is submitted until an operator approves or rejects it.`;
  },
  dap_rawdata_get_application_status(data) {
    const { application } = data;
    const note = application.decision_note ? ` Note: ${JSON.stringify(application.decision_note)}.` : '';
    return `Application ${application.application_id} (project ${JSON.stringify(application.project_name)}, draft version ${application.draft.version}) is ${application.status}.${note}`;
  },
};
