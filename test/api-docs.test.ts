/**
 * docs/api.md lists every name each entry of the toolkit exports, in that
 * entry's section, and nothing an entry does not export: a name added to an
 * entry without a line there, or removed from an entry and left there, fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolkitExports } from '../scripts/toolkit-exports.mjs';

const API = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');

/** The names docs/api.md lists under each entry's heading (`## \`entry\``, then lines `- \`name\` …`). */
function documented(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of API.split('\n')) {
    const heading = /^## `([^`]+)`$/.exec(line);
    if (heading) {
      current = [];
      sections.set(heading[1]!, current);
    }
    const item = /^- `([^`]+)`/.exec(line);
    if (item && current) current.push(item[1]!);
  }
  return sections;
}

describe('docs/api.md', () => {
  const entries = toolkitExports();
  const sections = documented();

  it('has a section for each entry of the packages, and no other', () => {
    expect([...sections.keys()]).toEqual(entries.map(({ entry }) => entry));
  });

  it.each(entries.map(({ entry, exports }) => [entry, exports.map(({ name }) => name)] as const))(
    'lists every export of %s, each with a line',
    (entry, names) => {
      expect([...(sections.get(entry) ?? [])].sort()).toEqual([...names].sort());
    },
  );

  it('gives every export a docstring to summarise', () => {
    const undocumented = entries.flatMap(({ entry, exports }) => exports.filter(({ summary }) => summary === '').map(({ name }) => `${entry}: ${name}`));
    expect(undocumented).toEqual([]);
  });
});
