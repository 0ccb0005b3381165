/**
 * @module Request bodies at a size limit for tests of deep nesting: tool
 * arguments nested as deep as the size allows, arguments as large that do
 * not nest, the JSON-RPC `tools/call` around either, and how long a site
 * takes to answer one, for a bound relative to the flat body's time.
 */

/**
 * Tool arguments of exactly `bytes` characters (ASCII, so also bytes) that
 * nest arrays as deep as that allows: `{"<field>":[[[…]]]}`.
 *
 * @throws RangeError when `bytes` is too small to hold the field.
 */
export function deeplyNestedArguments(field: string, bytes: number): string {
  const frame = `{${JSON.stringify(field)}:0}`.length - 1;
  const pairs = Math.floor((bytes - frame) / 2);
  if (pairs < 1) throw new RangeError(`${bytes} bytes cannot hold the field ${field}.`);
  const padding = bytes - frame - pairs * 2;
  return `{${JSON.stringify(field)}:${'['.repeat(pairs)}${']'.repeat(pairs)}${' '.repeat(padding)}}`;
}

/**
 * Tool arguments of exactly `bytes` characters that do not nest: one string
 * field of letters, `{"<field>":"aaa…"}`.
 *
 * @throws RangeError when `bytes` is too small to hold the field.
 */
export function flatArguments(field: string, bytes: number): string {
  const frame = `{${JSON.stringify(field)}:""}`.length;
  if (bytes < frame) throw new RangeError(`${bytes} bytes cannot hold the field ${field}.`);
  return `{${JSON.stringify(field)}:"${'a'.repeat(bytes - frame)}"}`;
}

/**
 * A JSON-RPC `tools/call` of `tool` whose whole text is exactly `bytes`
 * characters, its arguments made by `argumentsOf(bytes left for them)`
 * ({@link deeplyNestedArguments} or {@link flatArguments} with a field).
 */
export function toolCallMessage(tool: string, bytes: number, argumentsOf: (bytes: number) => string): string {
  const frame = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":}}`.length;
  return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${argumentsOf(bytes - frame)}}}`;
}

/** What `answer` settled with, and how long it took, in milliseconds. */
export async function timedAnswer<T>(answer: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await answer();
  return { value, ms: performance.now() - started };
}
