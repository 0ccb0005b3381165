#!/usr/bin/env node
/**
 * @module `npm run pack`: builds each publishable package with tsc
 * (packages/<name>/tsconfig.build.json → dist/) and writes its tarball to
 * .packs/ at the repository's root.
 *
 * Each package is packed from a staging copy whose package.json has no
 * `agentready-source` export condition (inside this repository the packages
 * resolve to their TypeScript sources through it; a published package has
 * only its build), no scripts and no devDependencies. Prints one line per
 * tarball; exits 1 when a build or a pack fails.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** In dependency order: a package is built after those it imports. */
export const PUBLISHED_PACKAGES = ['agentready', 'identity', 'testing'];
const PACKS = join(ROOT, '.packs');
const SOURCE_CONDITION = 'agentready-source';
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The package.json a published package gets: exports without the source condition, no scripts, no devDependencies. */
function publishedManifest(manifest) {
  const { scripts: _scripts, devDependencies: _dev, ...published } = manifest;
  published.exports = Object.fromEntries(
    Object.entries(manifest.exports).map(([entry, target]) => {
      if (typeof target === 'string') return [entry, target];
      const { [SOURCE_CONDITION]: _source, ...built } = target;
      return [entry, built];
    }),
  );
  return published;
}

function packOne(folder) {
  const packageDir = join(ROOT, 'packages', folder);
  rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [TSC, '-p', join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT });
  // A package's browser files (agentready's page script) are built after its JavaScript.
  const browserBuild = join(packageDir, 'build-page-script.mjs');
  if (existsSync(browserBuild)) execFileSync(process.execPath, [browserBuild], { stdio: 'inherit', cwd: ROOT });
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const stage = join(PACKS, 'stage', folder);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  cpSync(join(packageDir, 'dist'), join(stage, 'dist'), { recursive: true });
  for (const file of ['README.md', 'LICENSE']) if (existsSync(join(packageDir, file))) cpSync(join(packageDir, file), join(stage, file));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', PACKS], {
    cwd: stage,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const [packed] = JSON.parse(output);
  return { name: manifest.name, file: join(PACKS, packed.filename), size: packed.size, unpackedSize: packed.unpackedSize, files: packed.entryCount };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(PACKS, { recursive: true });
  for (const folder of PUBLISHED_PACKAGES) {
    const packed = packOne(folder);
    console.log(
      `${packed.name}: ${packed.file} (${(packed.size / 1024).toFixed(1)} kB packed, ${(packed.unpackedSize / 1024).toFixed(1)} kB unpacked, ${packed.files} files)`,
    );
  }
  rmSync(join(PACKS, 'stage'), { recursive: true, force: true });
}
