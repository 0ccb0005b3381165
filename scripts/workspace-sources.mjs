/**
 * @module Inside this repository the workspace's packages (agentready,
 * @agentready/identity, @agentready/testing) resolve to their TypeScript
 * sources through the `agentready-source` export condition; published
 * packages have only their builds. Processes started with
 * `node --conditions=agentready-source` get it from Node; a process that was
 * not (an app's command started from anywhere, a build step that imports a
 * module in Node) calls {@link resolveWorkspaceSources} first.
 */
import { register } from 'node:module';

/** The export condition that points the workspace's packages at their sources. */
export const SOURCE_CONDITION = 'agentready-source';

const HOOK = `data:text/javascript,export function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, ${JSON.stringify(SOURCE_CONDITION)}] }); }`;

let registered = false;

/**
 * Adds the source condition to every later import of this process (a
 * module.register resolve hook; call it after tsx's `register()`, so that
 * it runs before tsx's). Calling it again does nothing.
 */
export function resolveWorkspaceSources() {
  if (registered || process.execArgv.some((arg) => arg.includes(SOURCE_CONDITION))) return;
  register(HOOK);
  registered = true;
}
