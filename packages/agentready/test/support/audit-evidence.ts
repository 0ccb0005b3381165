/**
 * @module The audit evidence of one successful call of `search_events` over
 * MCP with no principal, for tests of the audit sink: each test changes what
 * it is about (the trace, the time, the tool).
 */
import type { AuditEvidence } from '../../src/runtime/index.ts';

/** A record of a search traced `traceId`, at `occurredAt` (ISO 8601), with `changes` applied over it. */
export function searchEvidence(traceId: string, occurredAt: string, changes: Partial<AuditEvidence> = {}): AuditEvidence {
  return {
    traceId,
    occurredAt,
    tool: 'search_events',
    surface: 'mcp',
    principalRef: null,
    accountRef: null,
    principalKind: null,
    clientName: null,
    authorization: 'not_required',
    inputSummary: { keyword: { kind: 'text', length: 6 } } as unknown as AuditEvidence['inputSummary'],
    outcomeCode: 'SUCCESS',
    resultingIds: [],
    durationMs: 1,
    ...changes,
  };
}
