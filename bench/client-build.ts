/**
 * @module The Events site's browser code as the benchmarks build and weigh
 * it: `vite build` with apps/events/vite.config.ts into a folder of the
 * benchmark's own, and sizes as served (raw), gzip-compressed (zlib, default
 * level) and brotli-compressed (zlib, default quality 11).
 */
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

/** The repository's root folder, with a trailing slash. */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The Events site's Vite config. */
export const EVENTS_VITE_CONFIG = fileURLToPath(new URL('../apps/events/vite.config.ts', import.meta.url));

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
