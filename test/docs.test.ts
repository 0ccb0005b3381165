/**
 * The README and docs/ stand on their own: they point at nothing outside the
 * repository (no design notes kept elsewhere, no issue numbers), and every
 * relative link in them reaches a file of the repository, and a heading there
 * when it names one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lexer, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
function documentationFiles(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs.sort()];
}

/** What a self-standing document must not name: notes outside the repository, and issue or seed numbers. */
const OUTSIDE_REFERENCES: ReadonlyArray<[string, RegExp]> = [
  ['DESIGN.md', /DESIGN\.md/i],
  ['a shared folder outside the repository', /\.\.\/shared\b|\/work\/shared\b/],
  ['an issue number', /\bissues?\s*#?\d+|(?:^|[\s(])#\d+\b/im],
  ['a seed number', /\bseed\s+\d{3}\b/i],
];

/** Every token of a document, however deeply nested (links sit inside paragraphs, lists and tables). */
function allTokens(markdown: string): Token[] {
  const found: Token[] = [];
  const lexer = new Lexer();
  const tokens = lexer.lex(markdown);
  const walk = (list: Token[]) => {
    for (const token of list) {
      found.push(token);
      if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens);
      if (token.type === 'list') walk((token as Tokens.List).items);
      if (token.type === 'table') {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens);
      }
    }
  };
  walk(tokens);
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = allTokens(readFileSync(file, 'utf8')).filter((token): token is Tokens.Heading => token.type === 'heading');
  return new Set(headings.map((heading) => headingAnchor(heading.text)));
}

describe('the documentation', () => {
  it('lists README.md and the pages under docs/', () => {
    expect(documentationFiles()).toEqual(expect.arrayContaining(['README.md', join('docs', 'architecture.md'), join('docs', 'events-api.md')]));
  });

  it('refers to nothing outside the repository: no DESIGN.md, no shared notes, no issue or seed numbers', () => {
    const found: string[] = [];
    for (const file of documentationFiles()) {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [what, pattern] of OUTSIDE_REFERENCES) if (pattern.test(line)) found.push(`${file}:${index + 1} names ${what}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('has relative links that reach a file of the repository, and a heading where they name one', () => {
    const found = documentationFiles().map((file) => brokenLinks(join(REPO_ROOT, file), REPO_ROOT));
    expect(found.flatMap((links) => links.broken)).toEqual([]);
    // The pages do link to each other, so the check above had links to check.
    expect(found.reduce((sum, links) => sum + links.checked, 0)).toBeGreaterThan(0);
  });

  it('would notice a link to a missing file, a missing heading or a place outside the repository', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      writeFileSync(join(root, 'b.md'), '# Other page\n\n## The part\n');
      writeFileSync(
        join(root, 'a.md'),
        '# A page\n\n[ok](b.md) [part](b.md#the-part) [here](#a-page) [web](https://example.org/x.md)\n\n' +
          '- [gone](c.md)\n- [no part](b.md#nope)\n\n| x |\n|---|\n| [out](../elsewhere.md) |\n\n`[code](not-a-link.md)`\n',
      );
      expect(brokenLinks(join(root, 'a.md'), root)).toEqual({
        checked: 6,
        broken: [
          'a.md: c.md (no such file in the repository)',
          'a.md: b.md#nope (no heading "nope" in b.md)',
          'a.md: ../elsewhere.md (no such file in the repository)',
        ],
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/**
 * The relative links (and images) of one Markdown file that do not resolve
 * under `root`; links with a scheme (https:, mailto:) are left alone.
 */
function brokenLinks(path: string, root: string): { checked: number; broken: string[] } {
  const file = relative(root, path);
  const broken: string[] = [];
  let checked = 0;
  for (const token of allTokens(readFileSync(path, 'utf8'))) {
    if (token.type !== 'link' && token.type !== 'image') continue;
    const href = (token as Tokens.Link).href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    checked += 1;
    const [target = '', anchor] = href.split('#');
    const targetPath = target === '' ? path : resolve(dirname(path), decodeURIComponent(target));
    if (!targetPath.startsWith(root) || !existsSync(targetPath)) {
      broken.push(`${file}: ${href} (no such file in the repository)`);
    } else if (anchor !== undefined && (!statSync(targetPath).isFile() || !targetPath.endsWith('.md') || !anchorsOf(targetPath).has(anchor))) {
      broken.push(`${file}: ${href} (no heading "${anchor}" in ${relative(root, targetPath)})`);
    }
  }
  return { checked, broken };
}
