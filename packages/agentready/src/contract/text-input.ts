/**
 * @module The one rule every text a tool takes keeps, whatever the app:
 * well-formed Unicode (no lone surrogate, which no identifier, URL or
 * database text can hold) and visible text (one-line-text.ts: no control,
 * invisible or direction-changing character), with line breaks and tabs
 * allowed only in a field its schema marks {@link multilineText}. The
 * pipeline applies it to every string of a tool's input once the contract's
 * schema accepted it.
 */
import { z } from 'zod';
import type { FailureDetails } from './envelope.ts';
import { isOneLineOfText } from './one-line-text.ts';

const multilineTextFields = z.registry<{ multilineText: true }>();

/**
 * Marks a text input as one that may hold line breaks and tabs (a reason, a
 * note: what people write in a text area); every other text input is one
 * line. The rest of the rule holds for it too.
 *
 * @returns the same schema (marked), for use in place.
 * @example const input = z.object({ note: multilineText(z.string().max(500)) });
 */
export function multilineText<S extends z.ZodType>(schema: S): S {
  multilineTextFields.add(schema, { multilineText: true });
  return schema;
}

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

const LINE_BREAKS_AND_TABS = /[\n\r\t]/g;

/**
 * The first string of `value` (an input `schema` accepted) that breaks the
 * text rule, as INVALID_INPUT naming its field and never its value; null when
 * every string keeps it. A string that is not well-formed Unicode is
 * refused as such; any other must be visible text (`isOneLineOfText`), where a
 * field marked {@link multilineText} may also hold `\n`, `\r` and `\t`. Walked
 * with an explicit stack (the input's depth is already bounded, input-depth.ts).
 */
export function textInputRefusal(schema: z.ZodType, value: unknown): FailureDetails | null {
  const multiline = multilineFieldPaths(schema);
  type Visit = { value: unknown; path: string[]; shape: string };
  const pending: Visit[] = [{ value, path: [], shape: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { path, shape } = next;
    if (typeof next.value === 'string') {
      const text = next.value;
      if (!isWellFormedText(text)) return refusal(path, 'not valid Unicode text (it holds a lone surrogate).');
      const visible = multiline.has(shape) ? text.replace(LINE_BREAKS_AND_TABS, ' ') : text;
      if (!isOneLineOfText(visible)) {
        return refusal(
          path,
          multiline.has(shape)
            ? 'must be visible text: no control, invisible or direction-changing characters (line breaks and tabs are fine).'
            : 'must be one line of visible text: no line break, control, invisible or direction-changing characters.',
        );
      }
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    const isArray = Array.isArray(next.value);
    const entries = Object.entries(next.value);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index]!;
      pending.push({ value: child, path: [...path, key], shape: isArray ? `${shape}[]` : shape ? `${shape}.${key}` : key });
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

const pathsBySchema = new WeakMap<z.ZodType, ReadonlySet<string>>();

/** Where `schema` takes multi-line text: dotted paths, `[]` for each item of an array or value of a record; found once per schema. */
function multilineFieldPaths(schema: z.ZodType): ReadonlySet<string> {
  let paths = pathsBySchema.get(schema);
  if (paths === undefined) {
    const found = new Set<string>();
    collectPaths(schema, '', found);
    paths = found;
    pathsBySchema.set(schema, paths);
  }
  return paths;
}

function collectPaths(schema: z.ZodType, path: string, paths: Set<string>): void {
  if (multilineTextFields.get(schema)?.multilineText) paths.add(path);
  if (schema instanceof z.ZodObject) {
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) collectPaths(field, path ? `${path}.${key}` : key, paths);
  } else if (schema instanceof z.ZodArray) {
    collectPaths(schema.element as z.ZodType, `${path}[]`, paths);
  } else if (schema instanceof z.ZodRecord) {
    collectPaths(schema.valueType as z.ZodType, `${path}[]`, paths);
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as readonly z.ZodType[]) collectPaths(option, path, paths);
  } else if (schema instanceof z.ZodPipe) {
    collectPaths(schema.in as z.ZodType, path, paths);
    collectPaths(schema.out as z.ZodType, path, paths);
  } else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodNonOptional ||
    schema instanceof z.ZodCatch ||
    schema instanceof z.ZodPrefault
  ) {
    collectPaths(schema.unwrap() as z.ZodType, path, paths);
  }
}
