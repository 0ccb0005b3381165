/**
 * @module The part of the browser's WebMCP API the adapter uses
 * (`document.modelContext`), typed here because TypeScript's DOM library
 * does not declare it yet.
 *
 * @see https://webmachinelearning.github.io/webmcp/
 */

/** Annotations a page may give a tool; Chromium reports them without the `Hint` suffix. */
export type WebMcpAnnotations = {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** A tool as `registerTool` takes it. `execute` resolves to a JSON-serializable value. */
export type WebMcpTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: WebMcpAnnotations;
  execute: (input: Record<string, unknown>, client?: unknown) => Promise<unknown>;
};

/** `document.modelContext`: registration only; aborting the signal unregisters. */
export type ModelContext = {
  registerTool(tool: WebMcpTool, options?: { signal?: AbortSignal }): Promise<void> | void;
};

/**
 * The document's model context, or null where the browser has none (then the
 * page still works for people; an app may load a polyfill first).
 */
export function findModelContext(doc: Document = document): ModelContext | null {
  const candidate = (doc as Document & { modelContext?: unknown }).modelContext;
  if (typeof candidate === 'object' && candidate !== null && typeof (candidate as ModelContext).registerTool === 'function') {
    return candidate as ModelContext;
  }
  return null;
}
