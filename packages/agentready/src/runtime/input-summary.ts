/**
 * @module The redacted input summary kept in audit evidence: enough to see
 * what was asked, never a secret or a person's contact details.
 */

/** A JSON value with secrets and free text replaced by markers. */
export type InputSummary = null | boolean | number | string | InputSummary[] | { [key: string]: InputSummary };

const SECRET_OR_CONTACT = /(e-?mail|token|password|passphrase|secret|cookie|csrf|intent|phone|address)/i;
// Short words only as a whole key or its last part, so that `keyword` is kept and `api_key`, `name`, `username` are not.
const KEY_OR_NAME = /(^|[_-])(key|(user)?name)$/i;
const SAFE_TEXT = /^[\p{L}\p{N}_.:\- ]{1,80}$/u;
// What people write in their own words (a decision's note, a comment, a reason) may name anyone: only its length is kept.
const FREE_TEXT = /(^|[_-])(note|comment|message|reason|description)s?$/i;

/** Options of {@link summarizeInput}. */
export type InputSummaryOptions = {
  /**
   * What the application's credentials look like (its access tokens, say
   * `/are_pat_/`). A string value or key that matches is `"[redacted]"`
   * wherever it stands, whatever its key: a caller may paste a token into any
   * field, or send it as a key. Default: none.
   */
  credentialPattern?: RegExp;
};

/**
 * Whether a text matches an application's credential pattern (always false
 * without one). The pattern's `g` and `y` flags are dropped, so one test
 * keeps no position for the next.
 */
export function credentialTest(pattern: RegExp | undefined): (text: string) => boolean {
  if (!pattern) return () => false;
  const stateless = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  return (text) => stateless.test(text);
}

/**
 * Summarises a tool's input for audit evidence.
 *
 * - Values under keys that name a secret or a person's details become
 *   `"[redacted]"`: keys containing email, token, password, secret, cookie,
 *   csrf, intent, phone or address, and keys that are or end in `key`, `name`
 *   or `username` (so `keyword` is kept, `api_key` and `name` are not).
 * - Text under keys that are or end in note, comment, message, reason or
 *   description (people's own words, which may name anyone) becomes `"[text:N]"`.
 * - Short plain strings (letters of any script, digits, spaces and `_.:-`, at
 *   most 80 characters: IDs, enum values, search words) are kept; other text
 *   (with `@`, punctuation, control characters, or longer) becomes `"[text:N]"`.
 * - Depth is capped at 4 and arrays at 20 items.
 * - Every key is kept as an own key, `__proto__` included, so a refused
 *   call's record shows what was sent.
 * - A string or key that matches `options.credentialPattern` is
 *   `"[redacted]"` (a key: `"[redacted key N]"`, N counting from 1).
 */
export function summarizeInput(input: unknown, options: InputSummaryOptions = {}): InputSummary {
  const isCredential = credentialTest(options.credentialPattern);
  let redactedKeys = 0;

  function summarize(input: unknown, depth: number): InputSummary {
    if (input === null || typeof input === 'boolean') return input;
    if (typeof input === 'number') return Number.isFinite(input) ? input : String(input);
    if (typeof input === 'string') {
      if (isCredential(input)) return '[redacted]';
      return SAFE_TEXT.test(input) && !input.includes('@') ? input : `[text:${input.length}]`;
    }
    if (depth >= 4) return '[nested]';
    if (Array.isArray(input)) return input.slice(0, 20).map((item) => summarize(item, depth + 1));
    if (typeof input === 'object') {
      const summary: { [key: string]: InputSummary } = {};
      for (const [key, value] of Object.entries(input).slice(0, 40)) {
        const credentialKey = isCredential(key);
        const safeKey = credentialKey ? `[redacted key ${++redactedKeys}]` : SAFE_TEXT.test(key) ? key : `[key:${key.length}]`;
        // Defined, not assigned: assigning `__proto__` would set the summary's prototype and drop the key from the record.
        Object.defineProperty(summary, safeKey, {
          value:
            credentialKey || SECRET_OR_CONTACT.test(key) || KEY_OR_NAME.test(key)
              ? '[redacted]'
              : FREE_TEXT.test(key) && typeof value === 'string'
                ? `[text:${value.length}]`
                : summarize(value, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return summary;
    }
    return `[${typeof input}]`;
  }

  return summarize(input, 0);
}
