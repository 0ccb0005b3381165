/**
 * @module Layer checks: which folder of a source tree may import which. A
 * project is built in floors (the toolkit: contract, store, runtime, then the
 * surfaces mcp and webmcp; an app: store, domain, tools, server); a floor may
 * use the floors below it and never one above, so each can be read, tested
 * and replaced without the ones that build on it. The imports are read with
 * the TypeScript compiler's own parser (`typescript`, a peer dependency of
 * this check only).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** What the files of one layer (a folder directly under the root) may import. */
export type LayerRule = {
  /** The other layers its files may import anything from. */
  uses: readonly string[];
  /** Layers it may import types from only (`import type`, `export type`), never values. */
  usesTypesOf?: readonly string[];
  /**
   * Packages its files must not import: a name matches itself and its subpaths
   * (`"hono"` covers `hono/cookie`); a name ending in `:` matches a scheme (`"node:"`).
   */
  forbiddenPackages?: readonly string[];
};

/** One import that breaks a {@link LayerRule}. */
export type LayerViolation = {
  /** The importing file, relative to the root, with `/` separators. */
  file: string;
  /** The module specifier as written. */
  specifier: string;
  /** One sentence: which layer reached which, and why that is refused. */
  problem: string;
};

/** One import read from a file: the specifier, and whether only types come through it. */
type ImportedModule = { specifier: string; typeOnly: boolean };

/**
 * Reads every `.ts` and `.tsx` file under `root/<layer>/` (recursively) and checks its
 * imports, re-exports and dynamic `import()`s against `rules`.
 *
 * A relative import that lands in another layer must be in `uses` (or, for
 * `import type`, in `usesTypesOf`); one that lands outside every listed layer
 * is refused too. A bare specifier is refused when it matches
 * `forbiddenPackages`. Imports within the same layer are free.
 *
 * @param root the folder whose direct subfolders are the layers (e.g. `apps/events/src`).
 * @param rules one rule per layer folder name; every subfolder of `root` must have one.
 * @returns the violations, in file order; empty when the tree keeps its layers.
 * @throws Error when `root` has a subfolder without a rule (a new layer must say what it may use).
 * @example
 * const violations = await findLayerViolations('packages/agentready/src', {
 *   contract: { uses: [], forbiddenPackages: ['node:', 'pg'] },
 *   runtime: { uses: ['contract', 'store'] },
 * });
 * expect(violations).toEqual([]);
 */
export async function findLayerViolations(root: string, rules: Readonly<Record<string, LayerRule>>): Promise<LayerViolation[]> {
  const ts = (await import('typescript')).default;
  const layers = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const unruled = layers.filter((layer) => !(layer in rules));
  if (unruled.length > 0) throw new Error(`No layer rule for ${unruled.join(', ')} under ${root}.`);

  function importsOf(file: string): ImportedModule[] {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const found: ImportedModule[] = [];
    const visit = (node: import('typescript').Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments;
        if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false });
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        found.push({ specifier: node.argument.literal.text, typeOnly: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  const violations: LayerViolation[] = [];
  for (const layer of layers) {
    const rule = rules[layer]!;
    for (const file of sourceFiles(join(root, layer))) {
      const shown = relative(root, file).split(sep).join('/');
      for (const { specifier, typeOnly } of importsOf(file)) {
        if (specifier.startsWith('.')) {
          const target = relative(root, resolve(dirname(file), specifier)).split(sep)[0] ?? '';
          if (target === layer || rule.uses.includes(target)) continue;
          if (typeOnly && rule.usesTypesOf?.includes(target)) continue;
          const problem = rule.usesTypesOf?.includes(target)
            ? `${layer} may import only types from ${target}, and this import brings values.`
            : layers.includes(target)
              ? `${layer} may not import from ${target}; it may use ${describeList([...rule.uses, ...(rule.usesTypesOf ?? []).map((name) => `${name} (types only)`)])}.`
              : `${layer} imports from outside the layers of ${root}.`;
          violations.push({ file: shown, specifier, problem });
        } else {
          const forbidden = rule.forbiddenPackages?.find((name) => matchesPackage(specifier, name));
          if (forbidden !== undefined) violations.push({ file: shown, specifier, problem: `${layer} may not import ${forbidden}.` });
        }
      }
    }
  }
  return violations;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function matchesPackage(specifier: string, name: string): boolean {
  if (name.endsWith(':')) return specifier.startsWith(name);
  return specifier === name || specifier.startsWith(`${name}/`);
}

function describeList(names: string[]): string {
  return names.length === 0 ? 'no other layer' : names.join(', ');
}
