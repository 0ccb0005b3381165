import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkCatalogConformance } from '@agentready/testing';
import { describe, expect, it } from 'vitest';
import { eventsCatalog } from '../src/tools/catalog.ts';
import { siteCommitCatalog } from '../src/tools/site-commits.ts';

const FIVE = ['search_events', 'get_event_details', 'save_event', 'prepare_event_registration', 'prepare_registration_cancellation'];
const srcRoot = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the Events catalog (frozen)', () => {
  it('holds exactly the five approved tools, in order', () => {
    expect(eventsCatalog.names).toEqual(FIVE);
    expect(Object.isFrozen(eventsCatalog)).toBe(true);
  });

  it('conforms: strict inputs, allowlisted outputs, no finalizer and no commit tool', () => {
    expect(checkCatalogConformance(eventsCatalog)).toEqual([]);
    expect(eventsCatalog.tools.filter((tool) => tool.effect === 'commit')).toEqual([]);
  });

  it('marks the read tools read-only and every tool that returns event copy as untrusted content', () => {
    const byName = Object.fromEntries(eventsCatalog.tools.map((tool) => [tool.name, tool.annotations]));
    expect(byName['search_events']).toMatchObject({ readOnlyHint: true, untrustedContentHint: true });
    expect(byName['get_event_details']).toMatchObject({ readOnlyHint: true, untrustedContentHint: true });
    for (const name of ['save_event', 'prepare_event_registration', 'prepare_registration_cancellation']) {
      // Each answers with an event's title, written by its organiser.
      expect(byName[name]).toMatchObject({ readOnlyHint: false, destructiveHint: false, untrustedContentHint: true });
    }
  });

  it('declares each tool in its own file, and no other source file spells its name as a string', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(srcRoot)) {
      const text = readFileSync(file, 'utf8');
      for (const name of FIVE) {
        const ownFile = file.endsWith(join('tools', `${name.replaceAll('_', '-')}.ts`));
        if (ownFile) expect(text).toContain(`name: '${name}'`);
        else if (new RegExp(`['"\`]${name}['"\`]`).test(text)) offenders.push(`${relative(srcRoot, file)}: ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("the site's own commit steps", () => {
  it("conform, and each commit takes the person's confirmation token and an idempotency key", () => {
    expect(checkCatalogConformance(siteCommitCatalog)).toEqual([]);
    const commits = siteCommitCatalog.tools.filter((tool) => tool.effect === 'commit');
    expect(commits.map((tool) => tool.name)).toEqual(['register_for_event', 'cancel_registration']);
    for (const tool of commits) expect(Object.keys(tool.input.shape)).toEqual(expect.arrayContaining(['confirmation_token', 'idempotency_key']));
  });

  it('are none of the tools agents are offered', () => {
    expect(siteCommitCatalog.names.filter((name) => eventsCatalog.has(name))).toEqual([]);
  });
});
