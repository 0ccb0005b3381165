/**
 * Tables on a phone-sized screen in Chromium: words wrap between words, never
 * inside one ("Effe / ct"); only codes and table names (in `<code>`) may
 * break anywhere, so a long one stays inside its cell.
 */
import { wordsBrokenInTables } from '@agentready/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBrowserPerson, type BrowserPerson } from './support/browser-person.ts';

const person = useBrowserPerson();
let current: BrowserPerson;
beforeEach(() => {
  current = person.current();
});

describe('tables on a narrow screen', () => {
  it('break no word in the middle on /autonomy, and keep its tool names (codes) inside their cells', async () => {
    const { page, site } = current;
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${site.url}/autonomy`);
    await page.getByRole('table').first().waitFor();
    expect(await wordsBrokenInTables(page)).toEqual([]);
    // A tool name (a code) still breaks where it must: none sticks out of its cell.
    const overflowing = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll('th code, td code')).filter(
          (code) => code.getBoundingClientRect().right > code.closest('th, td')!.getBoundingClientRect().right + 0.5,
        ).length,
    );
    expect(overflowing).toBe(0);
  });
});
