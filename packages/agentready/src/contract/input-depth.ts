/**
 * @module How deep a tool's input may nest, and the linear checks that hold
 * it there: on JSON text before it is parsed (a JavaScript engine's JSON
 * parser slows down far more than linearly on text nested hundreds of
 * thousands deep), and on a parsed value (input-failures.ts). No zod, no I/O:
 * the page imports it too.
 */
import type { FailureDetails } from './envelope.ts';

/**
 * The most levels of objects and arrays a tool's input may nest: the input
 * object is level 1, an object or array in one of its fields level 2. No
 * tool's schema needs more; a deeper input is refused INVALID_INPUT before
 * anything else reads it (docs/architecture.md, "Limits").
 */
export const MAX_INPUT_DEPTH = 64;

/** INVALID_INPUT for an input nested deeper than {@link MAX_INPUT_DEPTH}. */
export function nestedTooDeep(): FailureDetails {
  return {
    code: 'INVALID_INPUT',
    message: `The input nests objects and arrays more than ${MAX_INPUT_DEPTH} levels deep.`,
    nextAction: 'Send the fields the input schema lists, without deeper nesting.',
  };
}

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * JSON text with every object or array that opens at level `maxDepth + 1`
 * (a whole document that is an object or array is level 1) kept, but
 * emptied: `{"x":[[[[1]]]]}` cut at 2 is `{"x":[[]]}`. The value it parses
 * to nests exactly one level past the limit wherever the text went past it,
 * so a check of the parsed value refuses it as the text would have been
 * refused, while the parser never sees the deep part: a JavaScript engine's
 * JSON parser slows down far more than linearly on text nested hundreds of
 * thousands deep (V8: about 2 s for 500,000 levels, a 1 MB body). Brackets
 * inside strings do not count. One pass over the text; text within the limit
 * is returned as it is. Text that is not JSON stays text that is not JSON.
 *
 * @example cutJsonNesting('{"x":[[[[1]]]]}', 2) // '{"x":[[]]}'
 */
export function cutJsonNesting(text: string, maxDepth: number): string {
  let kept = '';
  let keptFrom = 0;
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = endOfString(text, index);
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth <= maxDepth) continue;
      const close = endOfContainer(text, index);
      kept += `${text.slice(keptFrom, index + 1)}${code === OPEN_OBJECT ? '}' : ']'}`;
      keptFrom = close + 1;
      index = close;
      depth -= 1;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
  return keptFrom === 0 ? text : kept + text.slice(keptFrom);
}

/** The index of the quote that ends the string opened at `open` (the text's last index when none does). */
function endOfString(text: string, open: number): number {
  for (let index = open + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index += 1;
    else if (code === QUOTE) return index;
  }
  return text.length - 1;
}

/** The index of the bracket that closes the object or array opened at `open` (the text's last index when none does). */
function endOfContainer(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) index = endOfString(text, index);
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth += 1;
    else if ((code === CLOSE_OBJECT || code === CLOSE_ARRAY) && --depth === 0) return index;
  }
  return text.length - 1;
}

/**
 * JSON text parsed with its nesting past `maxDepth` cut first
 * ({@link cutJsonNesting}), so parsing takes time in proportion to the
 * text's length whatever its depth.
 *
 * @returns the value, or undefined when the text is empty or not JSON.
 */
export function parseJsonWithinDepth(text: string, maxDepth: number): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(cutJsonNesting(text, maxDepth)) as unknown;
  } catch {
    return undefined;
  }
}
