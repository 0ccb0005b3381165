/**
 * @module Every name the toolkit's packages export, entry by entry, read
 * with the TypeScript checker from each package's `exports` (the
 * `agentready-source` condition: the sources the builds are made from).
 * test/api-docs.test.ts holds docs/api.md to it; `node scripts/toolkit-exports.mjs`
 * prints the names and how many there are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['agentready', 'identity', 'testing'];

/**
 * The toolkit's entries in package order, each with its exported names and the first sentence of each one's docstring.
 * @returns {{ entry: string, exports: { name: string, kind: 'function' | 'class' | 'type' | 'value', summary: string }[] }[]}
 */
export function toolkitExports() {
  const entries = [];
  for (const folder of PACKAGES) {
    const dir = join(ROOT, 'packages', folder);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const [path, target] of Object.entries(manifest.exports)) {
      const source = typeof target === 'string' ? target : target['agentready-source'];
      if (source?.endsWith('.ts')) entries.push({ entry: manifest.name + path.slice(1), file: join(dir, source) });
    }
  }
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      allowImportingTsExtensions: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['agentready-source'],
      jsx: ts.JsxEmit.ReactJSX,
      jsxImportSource: 'preact',
    },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ entry, file }) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file));
    const exports = checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const words = ts.displayPartsToString(target.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();
      const kind =
        target.flags & ts.SymbolFlags.Function
          ? 'function'
          : target.flags & ts.SymbolFlags.Class
            ? 'class'
            : target.flags & ts.SymbolFlags.Value
              ? 'value'
              : 'type';
      return { name: symbol.name, kind, summary: /^(.*?\.)(\s|$)/.exec(words)?.[1] ?? words };
    });
    return { entry, exports };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let total = 0;
  for (const { entry, exports } of toolkitExports()) {
    total += exports.length;
    console.log(`${entry}: ${exports.length}`);
  }
  console.log(`all entries: ${total}`);
}
