/**
 * The client build's plugin that runs a module at build time and ships its
 * data (apps/events/build/build-time-modules.ts): the page gets the values
 * the module computed, and the build stops, naming the export, when a value
 * would not reach the page as computed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTimeModules } from '../build/build-time-modules.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The plugin's replacement for a module of `source`, or its error. */
async function shipped(source: string): Promise<unknown> {
  const folder = mkdtempSync(join(tmpdir(), 'build-time-'));
  folders.push(folder);
  const path = join(folder, 'data.ts');
  // An ES module, as the app's are (apps/events/package.json).
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
  writeFileSync(path, source);
  const plugin = buildTimeModules([path]);
  const load = plugin.load as (id: string) => Promise<string | null>;
  return load.call({}, path);
}

describe('buildTimeModules', () => {
  it('replaces the module by the values it exports, computed in Node', async () => {
    const code = await shipped("const limit: number = 2 * 21;\nexport const limits = { limit, names: ['a', 'b'].map((name) => name.toUpperCase()) };");
    expect(code).toBe('export const limits = {"limit":42,"names":["A","B"]};');
  });

  it('stops the build when an export is not JSON data, naming it', async () => {
    await expect(shipped('export const check = (value: number) => value > 1;')).rejects.toThrow('export "check" is not JSON data');
    await expect(shipped('export const when = new Date(0);')).rejects.toThrow('export "when" is not JSON data');
    await expect(shipped('export default { a: 1 };')).rejects.toThrow('export "default" cannot be shipped as data');
  });

  it('leaves every other module to the build', async () => {
    const plugin = buildTimeModules(['/nowhere/data.ts']);
    expect(await (plugin.load as (id: string) => Promise<string | null>).call({}, '/elsewhere/main.ts')).toBeNull();
  });
});
