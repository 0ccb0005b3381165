/**
 * @module The Events site's browser code as the benchmarks build and weigh
 * it: `vite build` with apps/events/vite.config.ts into a folder of the
 * benchmark's own, and sizes as served (raw), gzip-compressed (zlib, default
 * level) and brotli-compressed (zlib, default quality 11).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build, loadConfigFromFile, type PluginOption, type Rollup } from 'vite';

/** The repository's root folder, with a trailing slash. */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The Events site's Vite config. */
export const EVENTS_VITE_CONFIG = fileURLToPath(new URL('../apps/events/vite.config.ts', import.meta.url));

/** GiftGenius's widget Vite config (one self-contained HTML file). */
export const WIDGET_VITE_CONFIG = fileURLToPath(new URL('../apps/giftgenius/vite.config.ts', import.meta.url));

/** Bytes of some text or file as served, gzip-compressed and brotli-compressed. */
export type Size = { raw: number; gzip: number; brotli: number };

/** What a build wrote: its JavaScript chunks and the size of its CSS. */
export type BuiltClient = { chunks: Rollup.OutputChunk[]; css: Size };

/** The {@link Size} of `content`. */
export function sizeOf(content: string | Uint8Array): Size {
  return { raw: Buffer.byteLength(content), gzip: gzipSync(content).length, brotli: brotliCompressSync(content).length };
}

/** Sizes added up, each kind on its own. */
export function addSizes(sizes: readonly Size[]): Size {
  return sizes.reduce((sum, size) => ({ raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip, brotli: sum.brotli + size.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });
}

/**
 * `vite build` of the Events site into `outDir` (emptied first), in
 * production mode.
 *
 * @returns the JavaScript chunks and the CSS's size.
 * @throws the build's error.
 */
export async function buildEventsClient(outDir: string): Promise<BuiltClient> {
  const result = await build({ configFile: EVENTS_VITE_CONFIG, logLevel: 'silent', mode: 'production', build: { outDir, emptyOutDir: true } });
  const outputs = (Array.isArray(result) ? result : [result as Rollup.RollupOutput]).flatMap((each) => each.output);
  const chunks = outputs.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  const css = addSizes(
    outputs.filter((item) => item.type === 'asset' && item.fileName.endsWith('.css')).map((item) => sizeOf((item as Rollup.OutputAsset).source)),
  );
  return { chunks, css };
}

/** A module's name for people: the package for node_modules, else the path from the repository. */
export function moduleName(id: string): string {
  const inPackage = id.split('node_modules/').at(-1)!;
  if (inPackage !== id)
    return inPackage
      .split('/')
      .slice(0, inPackage.startsWith('@') ? 2 : 1)
      .join('/');
  return id.startsWith(REPO) ? relative(REPO, id) : id.replace(/^\0/, '');
}

/**
 * The `count` biggest modules of `chunks`, by name ({@link moduleName}: a
 * package's modules count as one), with their rendered size in bytes before
 * minification, biggest first.
 */
export function biggestModules(chunks: readonly Rollup.OutputChunk[], count: number): Array<[name: string, bytes: number]> {
  const byModule = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [id, info] of Object.entries(chunk.modules)) byModule.set(moduleName(id), (byModule.get(moduleName(id)) ?? 0) + info.renderedLength);
  }
  return [...byModule].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The GiftGenius widget as built: the served file's size, and its JavaScript chunks (from the same build without inlining). */
export type BuiltWidget = { html: Size; chunks: Rollup.OutputChunk[] };

/**
 * `vite build` of the GiftGenius widget into `outDir` (emptied first), in
 * production mode, as the server serves it (one HTML file); and the same
 * build without vite-plugin-singlefile into `outDir`/modules, whose chunks
 * say which modules the script holds.
 *
 * @throws the build's error.
 */
export async function buildGiftGeniusWidget(outDir: string): Promise<BuiltWidget> {
  await build({ configFile: WIDGET_VITE_CONFIG, logLevel: 'silent', mode: 'production', build: { outDir, emptyOutDir: true } });
  const html = sizeOf(readFileSync(join(outDir, 'gift-finder.html')));
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, WIDGET_VITE_CONFIG);
  if (!loaded) throw new Error(`${WIDGET_VITE_CONFIG} exports no config.`);
  const plugins = (loaded.config.plugins ?? []).flat() as PluginOption[];
  const notInlining = plugins.filter((plugin) => !(plugin && typeof plugin === 'object' && 'name' in plugin && /singlefile/i.test(plugin.name)));
  const result = await build({
    ...loaded.config,
    configFile: false,
    plugins: notInlining,
    logLevel: 'silent',
    mode: 'production',
    build: { ...loaded.config.build, outDir: join(outDir, 'modules'), emptyOutDir: true },
  });
  const outputs = (Array.isArray(result) ? result : [result as Rollup.RollupOutput]).flatMap((each) => each.output);
  return { html, chunks: outputs.filter((item): item is Rollup.OutputChunk => item.type === 'chunk') };
}
