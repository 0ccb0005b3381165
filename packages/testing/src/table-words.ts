/**
 * @module Whether a page's tables break words in the middle: the test behind
 * "words wrap between words; only codes and IDs (in `<code>`) may break anywhere".
 */
import type { Page } from 'playwright-core';

/**
 * The words of the page's table headers and cells (outside `<code>`) that
 * the browser laid out over more than one line, as a person reads them
 * ("Effect" shown as "Effe / ct"). Measured in the page as it is now (its
 * viewport, its fonts): each run of non-space characters of each text node
 * (split at spaces and hyphens) is a DOM Range, and a word whose Range has boxes on more than one line
 * was broken inside.
 *
 * @returns the broken words, in document order; empty when none is.
 * @example await page.setViewportSize({ width: 360, height: 800 }); expect(await wordsBrokenInTables(page)).toEqual([]);
 */
export async function wordsBrokenInTables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of Array.from(document.querySelectorAll('th, td'))) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (node.parentElement?.closest('code') || node.parentElement?.closest('th, td') !== cell) continue;
        const text = node.textContent ?? '';
        // A hyphen is a place to wrap (CSS Text 3, "line breaking"): "signed-" / "in" is not a broken word.
        for (const match of text.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}
