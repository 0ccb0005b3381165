/**
 * The note `npm run bench` prints under its table when a P2 search and its
 * in-memory scan disagree: the search counts up to 1,000 by design
 * (docs/benchmarks.md), so a capped count beside a larger scan is agreement;
 * a different count or first page is not.
 */
import { describe, expect, it } from 'vitest';
import { searchAgreesWithScan } from '../bench/search-scale.ts';

describe('a P2 search against its scan', () => {
  it('agrees when the search counted up to its cap and the scan found more', () => {
    expect(searchAgreesWithScan({ matches: 1000, matchesExact: false, scanMatches: 16807, sameFirstPage: true })).toBe(true);
  });

  it('agrees when both counted the same matches exactly', () => {
    expect(searchAgreesWithScan({ matches: 812, matchesExact: true, scanMatches: 812, sameFirstPage: true })).toBe(true);
  });

  it('disagrees when an exact count differs from the scan, or a capped one exceeds it', () => {
    expect(searchAgreesWithScan({ matches: 1000, matchesExact: true, scanMatches: 16807, sameFirstPage: true })).toBe(false);
    expect(searchAgreesWithScan({ matches: 811, matchesExact: true, scanMatches: 812, sameFirstPage: true })).toBe(false);
    expect(searchAgreesWithScan({ matches: 1000, matchesExact: false, scanMatches: 1000, sameFirstPage: true })).toBe(false);
  });

  it('disagrees when the first pages differ, whatever the counts', () => {
    expect(searchAgreesWithScan({ matches: 1000, matchesExact: false, scanMatches: 16807, sameFirstPage: false })).toBe(false);
  });
});
