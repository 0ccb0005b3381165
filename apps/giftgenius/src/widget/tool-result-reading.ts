/**
 * @module How the widget reads a tool result: the envelope in
 * `structuredContent` (read with agentready's readToolResult), the CONFLICT
 * extension `changes`, the data contract version and view, and the
 * confirmation in a prepare_checkout result's `_meta`. Decisions come from
 * these fields only, never from a message's wording. No DOM here.
 */
import { readToolResult, type Change, type ToolResult } from 'agentready';
import { CHECKOUT_META_KEY, WIDGET_CONTRACT_VERSION, type CheckoutConfirmationMeta, type DraftChange, type WidgetData } from './widget-contract.ts';

/** The parts of an MCP CallToolResult the widget reads (structurally a subset of the SDK's type). */
export type ToolCallResult = { structuredContent?: unknown; _meta?: Record<string, unknown>; isError?: boolean };

/** What a tool result means for the widget. */
export type ReadResult =
  /** `structuredContent` is no envelope: nothing can be shown from it. */
  | { kind: 'unreadable' }
  /** A failure envelope, with the `changes` of a CONFLICT when it lists any. */
  | { kind: 'failure'; failure: Extract<ToolResult<unknown>, { ok: false }>; changes: DraftChange[] }
  /** A success whose `data` is of another contract version, or a view this widget does not know. */
  | { kind: 'outdated'; contractVersion: unknown }
  /** A success in this widget's contract. */
  | { kind: 'success'; data: WidgetData; replayed: boolean };

const KNOWN_VIEWS: ReadonlySet<string> = new Set(['gift_suggestions', 'checkout_review', 'checkout_created']);
const CHANGE_FIELDS: ReadonlySet<string> = new Set(['price', 'availability', 'stock']);

/**
 * Reads `result.structuredContent` as the envelope (DESIGN.md, "The result envelope").
 *
 * @returns `unreadable` when it is no envelope; `failure` for `ok: false`;
 *   `outdated` when `data.contractVersion` is not {@link WIDGET_CONTRACT_VERSION}
 *   or `data.view` is not one this widget renders; else `success`.
 */
export function readWidgetResult(result: ToolCallResult): ReadResult {
  const envelope = readToolResult(result.structuredContent);
  if (envelope === null) return { kind: 'unreadable' };
  if (!envelope.ok) return { kind: 'failure', failure: envelope, changes: draftChanges(envelope.changes ?? []) };
  const data = envelope.data;
  if (!isRecord(data)) return { kind: 'outdated', contractVersion: undefined };
  if (data['contractVersion'] !== WIDGET_CONTRACT_VERSION || typeof data['view'] !== 'string' || !KNOWN_VIEWS.has(data['view'])) {
    return { kind: 'outdated', contractVersion: data['contractVersion'] };
  }
  return { kind: 'success', data: data as WidgetData, replayed: envelope.replayed === true };
}

/**
 * Reads `_meta['giftgenius/checkout']` of a prepare_checkout result.
 *
 * @returns the confirmation when it is well formed and bound to `draft`
 *   (same draftId and version), else null: the widget then offers no Confirm.
 */
export function readCheckoutConfirmation(result: ToolCallResult, draft: { draftId: string; version: number }): CheckoutConfirmationMeta | null {
  const meta = result._meta?.[CHECKOUT_META_KEY];
  if (!isRecord(meta)) return null;
  const { confirmationToken, draftId, draftVersion } = meta;
  if (typeof confirmationToken !== 'string' || confirmationToken === '') return null;
  if (draftId !== draft.draftId || draftVersion !== draft.version) return null;
  return { confirmationToken, draftId, draftVersion };
}

/** A CONFLICT's `changes` (read by agentready's readToolResult) about the fields a draft has; others are left out. */
function draftChanges(changes: Change[]): DraftChange[] {
  return changes.flatMap((change) => (CHANGE_FIELDS.has(change.field) ? [change as DraftChange] : []));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
