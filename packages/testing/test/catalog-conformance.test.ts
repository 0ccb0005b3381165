import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool } from 'agentready';
import { checkCatalogConformance } from '../src/index.ts';

const description = 'A tool for the conformance tests, described at the length a model needs.';

describe('checkCatalogConformance', () => {
  it('passes a catalog whose inputs and outputs are closed all the way down', () => {
    const tool = defineTool({
      name: 'find_order',
      title: 'Find order',
      description,
      effect: 'read',
      input: z.object({ order_id: z.string() }),
      output: z.object({ order: z.object({ id: z.string(), lines: z.array(z.object({ sku: z.string() })) }), note: z.string().nullable() }),
    });
    expect(checkCatalogConformance(defineCatalog([tool]))).toEqual([]);
  });

  it('finds nested open objects and open values that would let internal fields through', () => {
    const leaky = defineTool({
      name: 'find_order',
      title: 'Find order',
      description,
      effect: 'read',
      input: z.object({ filter: z.looseObject({ status: z.string() }) }),
      output: z.object({ order: z.looseObject({ id: z.string() }), extra: z.unknown(), tags: z.record(z.string(), z.string()) }),
    });
    expect(checkCatalogConformance(defineCatalog([leaky]))).toEqual([
      'find_order: input.filter accepts unknown keys.',
      'find_order: output.order lets unlisted fields through.',
      'find_order: output.extra lets unlisted fields through.',
      'find_order: output.tags lets unlisted fields through.',
    ]);
  });

  it('refuses finalizer words outside commit tools, and lets a commit tool say what it commits', () => {
    const spec = { title: 'T', description, input: z.object({}), output: z.object({ done: z.boolean() }) };
    const hidden = defineTool({ ...spec, name: 'submit_registration', effect: 'prepare' });
    const commit = defineTool({
      ...spec,
      name: 'submit_application',
      effect: 'commit',
      input: z.object({ confirmation_token: z.string(), idempotency_key: z.string() }),
    });
    expect(checkCatalogConformance(defineCatalog([hidden]))).toEqual(['submit_registration: the name contains the finalizer word "submit".']);
    expect(checkCatalogConformance(defineCatalog([commit], { allowCommitTools: true }))).toEqual([]);
  });

  it('lets a prepare tool named prepare_… name what it prepares, and no other tool', () => {
    const spec = { title: 'T', description, input: z.object({}), output: z.object({ done: z.boolean() }) };
    const prepares = defineTool({ ...spec, name: 'prepare_checkout', effect: 'prepare' });
    const readsAsPrepare = defineTool({ ...spec, name: 'prepare_checkout_view', effect: 'read' });
    const hiddenInside = defineTool({ ...spec, name: 'quick_checkout_prepare', effect: 'prepare' });
    expect(checkCatalogConformance(defineCatalog([prepares]))).toEqual([]);
    expect(checkCatalogConformance(defineCatalog([readsAsPrepare, hiddenInside]))).toEqual([
      'prepare_checkout_view: the name contains the finalizer word "checkout".',
      'quick_checkout_prepare: the name contains the finalizer word "checkout".',
    ]);
  });
});

describe('npm run check:catalog', () => {
  const command = fileURLToPath(new URL('../src/catalog-check-command.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
  const fixture = (name: string) => fileURLToPath(new URL(`./support/catalogs/${name}.ts`, import.meta.url));

  it('fails, naming the rule, for a module whose commit tool takes no idempotency key', () => {
    const run = spawnSync(tsx, ['--conditions=agentready-source', command, fixture('commit-without-key')], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Commit tool "submit_order" must take idempotency_key in its input, or declare confirm so that the site asks the person.');
  });

  it('passes a module whose commit tool keeps the rules, and says what it checked', () => {
    const run = spawnSync(tsx, ['--conditions=agentready-source', command, fixture('safe-commit')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1 catalog(s), 1 tool(s), 0 problem(s).');
  });
});
