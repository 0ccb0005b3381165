/**
 * @module The redacted input summary kept in audit evidence: enough to see
 * what was asked, never a secret or a person's contact details.
 */

/** A JSON value with secrets and free text replaced by markers. */
export type InputSummary = null | boolean | number | string | InputSummary[] | { [key: string]: InputSummary };

const SECRET_KEY = /(e-?mail|token|password|secret|cookie|csrf|intent|key|phone)/i;
const SAFE_TEXT = /^[A-Za-z0-9_.:-]{1,80}$/;

/**
 * Summarises a tool's input for audit evidence.
 *
 * - Values under keys that name secrets or contact details (e-mail, token,
 *   password, cookie, CSRF, intent, key, phone) become `"[redacted]"`.
 * - Strings that look like identifiers or enum values (letters, digits, `_.:-`,
 *   at most 80 characters) are kept; other text becomes `"[text:N]"` (N characters),
 *   so names and free text are counted, not copied.
 * - Depth is capped at 4 and arrays at 20 items.
 */
export function summarizeInput(input: unknown, depth = 0): InputSummary {
  if (input === null || typeof input === 'boolean') return input;
  if (typeof input === 'number') return Number.isFinite(input) ? input : String(input);
  if (typeof input === 'string') return SAFE_TEXT.test(input) && !input.includes('@') ? input : `[text:${input.length}]`;
  if (depth >= 4) return '[nested]';
  if (Array.isArray(input)) return input.slice(0, 20).map((item) => summarizeInput(item, depth + 1));
  if (typeof input === 'object') {
    const summary: { [key: string]: InputSummary } = {};
    for (const [key, value] of Object.entries(input).slice(0, 40)) {
      const safeKey = SAFE_TEXT.test(key) ? key : `[key:${key.length}]`;
      summary[safeKey] = SECRET_KEY.test(key) ? '[redacted]' : summarizeInput(value, depth + 1);
    }
    return summary;
  }
  return `[${typeof input}]`;
}
