/**
 * @module The one rule every text a tool takes keeps, whatever the app:
 * well-formed Unicode (no lone surrogate, which no identifier, URL or
 * database text can hold). The pipeline applies it to every string of a
 * tool's input once the contract's schema accepted it.
 */
import type { FailureDetails } from './envelope.ts';

/**
 * Whether `text` is well-formed UTF-16: every surrogate in a pair
 * (`String.prototype.isWellFormed`, ES2024, where the engine has it).
 */
export function isWellFormedText(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (native) return native.call(text);
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xdc00 && code <= 0xdfff) return false;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index += 1;
    }
  }
  return true;
}

/**
 * The first string of `value` (an input its schema accepted) that breaks the
 * text rule, as INVALID_INPUT naming its field and never its value; null when
 * every string keeps it: a string that is not well-formed Unicode (a lone
 * surrogate) is no identifier, URL or database text. Walked with an explicit
 * stack (the input's depth is already bounded, input-depth.ts).
 */
export function textInputRefusal(value: unknown): FailureDetails | null {
  type Visit = { value: unknown; path: string[] };
  const pending: Visit[] = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { path } = next;
    if (typeof next.value === 'string') {
      if (!isWellFormedText(next.value)) return refusal(path, 'not valid Unicode text (it holds a lone surrogate).');
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    const entries = Object.entries(next.value);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index]!;
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

function refusal(path: readonly string[], description: string): FailureDetails {
  const field = path.join('.');
  return {
    code: 'INVALID_INPUT',
    message: field ? `Field "${field}": ${description}` : `The input is ${description}`,
    nextAction: 'Correct the field and call again.',
    ...(field && { field }),
  };
}
