/**
 * @module Third-party text in a tool's output (event copy, descriptions,
 * reviews): which fields carry it, so every surface can say so and the MCP
 * text content can quote it (tools whose results carry text written by third
 * parties also set WebMCP's `untrustedContentHint`).
 */
import { z } from 'zod';

const untrustedTextFields = z.registry<{ untrustedText: true }>();

/**
 * Marks an output field as text written by a third party, never instructions.
 * The contract then lists it in `untrustedFields`, MCP names it in `_meta`, and
 * the text content quotes it. The mark survives `.describe()`, `.optional()`
 * and `.nullable()` applied afterwards, and `pick`/`extend` of its object.
 *
 * @returns the same schema (marked), for use in place.
 * @example
 * const event = z.object({ id: z.string(), title: untrustedText(z.string()) });
 */
export function untrustedText<S extends z.ZodType>(schema: S): S {
  untrustedTextFields.add(schema, { untrustedText: true });
  return schema;
}

/**
 * Where an output schema carries text marked by {@link untrustedText}: dotted
 * paths from the schema's root, `[]` for every item of an array or value of a
 * record (`events[].title`, `event.summary`). Fields under optional, nullable,
 * default, readonly, union and pipe wrappers are found; lazy (recursive)
 * schemas are not walked.
 *
 * @returns the paths in declaration order, without duplicates; empty when none.
 */
export function untrustedFieldPaths(schema: z.ZodType): string[] {
  const paths = new Set<string>();
  collectPaths(schema, '', paths);
  return [...paths];
}

function collectPaths(schema: z.ZodType, path: string, paths: Set<string>): void {
  if (untrustedTextFields.get(schema)?.untrustedText) {
    paths.add(path);
    return;
  }
  if (schema instanceof z.ZodObject) {
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) collectPaths(field, path ? `${path}.${key}` : key, paths);
  } else if (schema instanceof z.ZodArray) {
    collectPaths(schema.element as z.ZodType, `${path}[]`, paths);
  } else if (schema instanceof z.ZodRecord) {
    collectPaths(schema.valueType as z.ZodType, `${path}[]`, paths);
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as readonly z.ZodType[]) collectPaths(option, path, paths);
  } else if (schema instanceof z.ZodPipe) {
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

/**
 * A copy of `value` in which every string at one of `paths` (as
 * {@link untrustedFieldPaths} writes them, relative to `value`) is replaced by
 * `transform(string)`; everything else is kept as it is.
 */
export function mapUntrustedStrings<T>(value: T, paths: readonly string[], transform: (text: string) => string): T {
  let result: unknown = value;
  for (const path of paths) result = mapAtPath(result, path === '' ? [] : path.split('.'), transform);
  return result as T;
}

function mapAtPath(value: unknown, steps: readonly string[], transform: (text: string) => string): unknown {
  if (steps.length === 0) return typeof value === 'string' ? transform(value) : value;
  const [step, ...rest] = steps as [string, ...string[]];
  // "events[]" is the key events, then each item; "grid[][]" each item of each item.
  const [, key = '', brackets = ''] = /^(.*?)((?:\[\])*)$/.exec(step) ?? [];
  const mapInner = (inner: unknown, depth: number): unknown =>
    depth === 0 ? mapAtPath(inner, rest, transform) : mapEach(inner, (item) => mapInner(item, depth - 1));
  if (key === '') return mapInner(value, brackets.length / 2);
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return value;
  const target = (value as Record<string, unknown>)[key];
  const mapped = mapInner(target, brackets.length / 2);
  return mapped === target ? value : { ...(value as Record<string, unknown>), [key]: mapped };
}

function mapEach(value: unknown, map: (item: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map(map);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
  return value;
}
