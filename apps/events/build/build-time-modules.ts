/**
 * @module
 * A Vite plugin that runs chosen modules at build time and ships only the
 * data they export: the client gets the values, not the code (nor the
 * dependencies) that computed them. Used for the pages' published tool
 * contracts (src/web/published-tools.ts), which zod computes.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import { resolveWorkspaceSources } from '../../../scripts/workspace-sources.mjs';

/**
 * Replaces each module of `paths` (absolute) in the build by its exports'
 * values, written as literals; the module runs in Node (TypeScript through
 * tsx) once per build.
 *
 * @throws Error (failing the build) when an export is not JSON data (a
 *   function, a class instance, undefined, a number JSON cannot write), or
 *   is a default export: the page would get something other than what the
 *   module computed.
 */
export function buildTimeModules(paths: readonly string[]): Plugin {
  const modules = new Set(paths.map((path) => resolve(path)));
  return {
    name: 'events:build-time-modules',
    enforce: 'pre',
    async load(id) {
      const path = id.split('?')[0] ?? id;
      if (!modules.has(path)) return null;
      // The module imports the toolkit as the site's server does: from the workspace's sources.
      resolveWorkspaceSources();
      const namespace = (await tsImport(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
      return Object.entries(namespace)
        .map(([name, value]) => `export const ${exportName(path, name)} = ${jsonLiteral(path, name, value)};`)
        .join('\n');
    },
  };
}

function exportName(path: string, name: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || name === 'default') throw new Error(`${path}: export "${name}" cannot be shipped as data; use a named export.`);
  return name;
}

function jsonLiteral(path: string, name: string, value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
    throw new Error(`${path}: export "${name}" is not JSON data, so the page cannot get it as computed.`);
  }
  return json;
}
