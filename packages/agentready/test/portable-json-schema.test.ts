/**
 * portableJsonSchema: every zod construct that zod 4 spells with a `type`
 * array comes out as `anyOf` branches of one type each, accepting exactly the
 * values the zod schema accepts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portableJsonSchema } from '../src/contract/index.ts';

/** Every `type` keyword in a JSON Schema, wherever it is. */
function typeKeywords(node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap(typeKeywords);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === 'type' ? [value, ...typeKeywords(value)] : typeKeywords(value)));
}

const shape = z.object({
  note: z.string().nullable(),
  score: z.number().int().nullable().describe('null until rated'),
  tags: z.array(z.union([z.string(), z.number()])),
  pair: z.tuple([z.boolean().nullable(), z.string()]),
  byName: z.record(z.string(), z.string().nullable()),
  nested: z.object({ deeper: z.array(z.object({ when: z.string().nullable() })) }).nullable(),
  either: z.union([z.string().nullable(), z.object({ id: z.string() })]),
});

describe('portableJsonSchema', () => {
  it('spells no type as an array, however deep, for input and output', () => {
    for (const io of ['input', 'output'] as const) {
      const types = typeKeywords(portableJsonSchema(shape, io));
      expect(types.length).toBeGreaterThan(10);
      expect(types.filter((type) => typeof type !== 'string')).toEqual([]);
    }
    expect(portableJsonSchema(shape, 'output')['properties']).toMatchObject({
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      score: { description: 'null until rated', anyOf: [{ type: 'integer' }, { type: 'null' }] },
    });
  });

  it('accepts and refuses exactly what the zod schema does', () => {
    const validate = new Ajv2020({ strict: false }).compile(portableJsonSchema(shape, 'output'));
    const good = { note: null, score: 3, tags: ['a', 1], pair: [null, 'x'], byName: { a: null, b: 'b' }, nested: { deeper: [{ when: null }] }, either: null };
    const bad = [
      { ...good, note: 1 },
      { ...good, score: 1.5 },
      { ...good, tags: [true] },
      { ...good, pair: ['yes', 'x'] },
      { ...good, byName: { a: 2 } },
      { ...good, nested: { deeper: [{ when: false }] } },
      { ...good, either: 7 },
    ];
    expect(shape.safeParse(good).success).toBe(true);
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    for (const value of bad) {
      expect(shape.safeParse(value).success).toBe(false);
      expect(validate(value)).toBe(false);
    }
  });
});
