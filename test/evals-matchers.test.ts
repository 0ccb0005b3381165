/**
 * The matchers a case author writes, as webmcp-evals means them (objects as a
 * subset, arrays strictly, `$pattern` with a leading `(?i)`), plus the three
 * this runner adds (`$length`, `$every`, `$from`); each failure says where and
 * what was expected, and a matcher that does not exist is a broken case.
 */
import { describe, expect, it } from 'vitest';
import { findMismatches, matcherPaths, resolveReferences } from '../evals/runner/argument-matchers.ts';

describe('matching a value against an expectation', () => {
  it.each([
    ['an object as a subset', { keyword: 'AI' }, { keyword: 'AI', page: 1 }],
    ['$contains', { keyword: { $contains: 'Web' } }, { keyword: 'WebMCP 入門' }],
    ['$pattern with inline flags', { keyword: { $pattern: '(?i)^webmcp' } }, { keyword: 'WebMCP' }],
    ['$gte and $lte together', { amount: { $gte: 10, $lte: 20 } }, { amount: 20 }],
    ['$type array', { events: { $type: 'array' } }, { events: [] }],
    ['$any', { id: { $any: true } }, { id: null }],
    ['$length of an array', { candidates: { $length: 2 } }, { candidates: [{}, {}] }],
    ['$every element', { gifts: { $every: { price: { $lte: 40 } } } }, { gifts: [{ price: 10 }, { price: 40 }] }],
    ['$every of an empty list', { gifts: { $every: { price: { $lte: 40 } } } }, { gifts: [] }],
  ])('%s matches', (_name, expected, actual) => {
    expect(findMismatches(expected, actual)).toEqual([]);
  });

  it.each([
    ['an array of another length', { ids: ['a'] }, { ids: ['a', 'b'] }, [{ path: 'ids', expected: '["a"]', actual: '["a","b"]' }]],
    ['a missing key', { event: { id: 'evt-a' } }, { event: {} }, [{ path: 'event.id', expected: '"evt-a"', actual: '(missing)' }]],
    ['a number over $lte', { total: { $lte: 5 } }, { total: 6 }, [{ path: 'total', expected: 'a number lte 5', actual: '6' }]],
    [
      'one element of $every',
      { gifts: { $every: { price: { $lte: 40 } } } },
      { gifts: [{ price: 10 }, { price: 41 }] },
      [{ path: 'gifts.1.price', expected: 'a number lte 40', actual: '41' }],
    ],
    ['$length', { candidates: { $length: { $gte: 2 } } }, { candidates: [1] }, [{ path: 'candidates.length', expected: 'a number gte 2', actual: '1' }]],
  ])('%s does not match, and says where', (_name, expected, actual, mismatches) => {
    expect(findMismatches(expected, actual)).toEqual(mismatches);
  });

  it('takes $from from an earlier answer, and names a reference that leads nowhere', () => {
    const answers = new Map<string, unknown>([['draft', { data: { draft_id: 'drf-1', items: [{ id: 'x' }] } }]]);
    expect(resolveReferences({ draft_id: { $from: 'draft.data.draft_id' }, first: { $from: 'draft.data.items.0.id' } }, answers)).toEqual({
      draft_id: 'drf-1',
      first: 'x',
    });
    expect(findMismatches({ draft_id: { $from: 'draft.data.draft_id' } }, { draft_id: 'drf-2' }, answers)).toEqual([
      { path: 'draft_id', expected: '"drf-1"', actual: '"drf-2"' },
    ]);
    expect(() => resolveReferences({ $from: 'checkout.data.id' }, answers)).toThrow('no earlier call or person action is named "checkout"');
    expect(() => resolveReferences({ $from: 'draft.data.version' }, answers)).toThrow('the answer has nothing at "version"');
  });

  it('refuses a matcher it does not know, as a broken case', () => {
    expect(() => findMismatches({ total: { $between: [1, 2] } }, { total: 1 })).toThrow('Unknown matcher $between at total');
  });

  it('finds the matchers replay cannot send, but not $from, which it resolves', () => {
    expect(matcherPaths({ keyword: { $contains: 'AI' }, page: 1, filters: [{ level: { $type: 'string' } }] })).toEqual(['keyword', 'filters.0.level']);
    expect(matcherPaths({ draft_id: { $from: 'draft.data.draft_id' }, changes: { retention_months: 6 } })).toEqual([]);
  });
});
