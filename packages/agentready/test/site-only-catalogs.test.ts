/**
 * Site-only catalogs and the autonomy of each tool: what an agent may do
 * alone, what needs the person, and what only the person does on the site;
 * a site-only catalog's calls through the pipeline from anything but the
 * person's browser on the site are refused with evidence and run nothing, and
 * no MCP surface can be built on one.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentAutonomy } from '../src/contract/autonomy.ts';
import { autonomyMatrix, defineCatalog, defineTool } from '../src/contract/index.ts';
import { createMcpHttpEndpoint, createMcpToolServer, serveMcpOverStdio } from '../src/mcp/index.ts';
import { createInvocationPipeline, type AuditEvidence, type Invocation } from '../src/runtime/index.ts';
import type { Principal } from '../src/contract/index.ts';
import { withHandlers } from './support/catalog-handlers.ts';

const findTable = defineTool({
  name: 'find_table',
  title: 'Find a source table',
  description: 'Finds a source table by name.',
  effect: 'read',
  input: z.object({ name: z.string() }),
  output: z.object({ name: z.string() }),
});
const prepareCopy = defineTool({
  name: 'prepare_copy',
  title: 'Prepare a copy request',
  description: 'Stores a draft of a copy request for the person to review.',
  effect: 'prepare',
  input: z.object({ table: z.string() }),
  output: z.object({ draft_id: z.string() }),
});
const noteProject = defineTool({
  name: 'note_project',
  title: 'Note a project',
  description: "Keeps a project name among the person's projects.",
  effect: 'write',
  input: z.object({ project: z.string() }),
  output: z.object({ kept: z.boolean() }),
});
const submitCopy = defineTool({
  name: 'submit_copy',
  title: 'Submit a copy request',
  description: 'Submits the copy request the person confirmed.',
  effect: 'commit',
  input: z.object({ draft_id: z.string(), confirmation_token: z.string(), idempotency_key: z.string() }),
  output: z.object({ application_id: z.string() }),
});
const confirmSensitive = defineTool({
  name: 'confirm_sensitive_data',
  title: 'Confirm sensitive data',
  description: 'Records that the person confirmed the request copies sensitive data.',
  effect: 'write',
  input: z.object({ draft_id: z.string() }),
  output: z.object({ confirmed: z.boolean() }),
});

const agentCatalog = defineCatalog([findTable, prepareCopy, noteProject, submitCopy], { allowCommitTools: true });
const siteCatalog = defineCatalog([confirmSensitive], { siteOnly: true });

const ACCOUNT = { id: 'internal-9', ref: 'acc-mei' };
const onSite: Principal = { id: ACCOUNT.id, kind: 'session', ref: 'ses-mei', account: ACCOUNT };
const withToken: Principal = {
  id: ACCOUNT.id,
  kind: 'token',
  ref: 'pat-mei',
  account: ACCOUNT,
  clientName: 'Desk agent',
  scope: ['read', 'prepare', 'write', 'commit'],
};
const withOauth: Principal = { id: ACCOUNT.id, kind: 'oauth', ref: 'oag-mei', account: ACCOUNT, clientName: 'IDE agent' };

/** The site-only catalog's pipeline, counting the operation's runs and keeping the evidence. */
function sitePipeline() {
  const evidence: AuditEvidence[] = [];
  const runs: string[] = [];
  const pipeline = createInvocationPipeline({
    catalog: withHandlers(siteCatalog, {
      confirm_sensitive_data: async ({ draft_id }) => {
        runs.push(draft_id);
        return { ok: true, data: { confirmed: true } };
      },
    }),
    stateVersionOf: async (who) => (who ? 2 : 0),
    audit: { record: async (record) => void evidence.push(record) },
    logger: pino({ level: 'silent' }),
  });
  return { pipeline, evidence, runs };
}

describe('the autonomy of each tool', () => {
  it('lets an agent read, prepare and write alone, needs the person for a commit, and never offers a site-only tool', () => {
    expect(autonomyMatrix([agentCatalog, siteCatalog])).toEqual([
      {
        tool: 'find_table',
        title: 'Find a source table',
        effect: 'read',
        autonomy: 'alone',
        reason: 'An agent can do this alone: it only reads and changes nothing.',
      },
      {
        tool: 'prepare_copy',
        title: 'Prepare a copy request',
        effect: 'prepare',
        autonomy: 'alone',
        reason: 'An agent can do this alone: it prepares a draft or fills a form and commits nothing.',
      },
      {
        tool: 'note_project',
        title: 'Note a project',
        effect: 'write',
        autonomy: 'alone',
        reason: 'An agent can do this alone: it saves an additive change that is safe to repeat and commits nothing others see.',
      },
      {
        tool: 'submit_copy',
        title: 'Submit a copy request',
        effect: 'commit',
        autonomy: 'needs_person',
        reason: 'An agent can hand this in, but it takes effect only with the confirmation token the person gets when they confirm on the site.',
      },
      {
        tool: 'confirm_sensitive_data',
        title: 'Confirm sensitive data',
        effect: 'write',
        autonomy: 'never',
        reason: "Only the person can do this, on the site: no agent is offered this tool, and it runs only for the person's own signed-in browser.",
      },
    ]);
  });

  it('answers one tool at a time, keeps siteOnly on the frozen catalog, and refuses a tool of another catalog', () => {
    expect(agentAutonomy(submitCopy, agentCatalog)).toBe('needs_person');
    expect(agentAutonomy(confirmSensitive, siteCatalog)).toBe('never');
    expect([agentCatalog.siteOnly, siteCatalog.siteOnly]).toEqual([false, true]);
    expect(Object.isFrozen(siteCatalog)).toBe(true);
    expect(() => agentAutonomy(findTable, siteCatalog)).toThrow('Tool "find_table" is not a tool of this catalog.');
  });
});

describe('a site-only catalog through the pipeline', () => {
  const call = (surface: Invocation['surface'], principal: Principal | null): Invocation => ({
    tool: 'confirm_sensitive_data',
    input: { draft_id: 'drf-1' },
    principal,
    surface,
  });

  it.each([
    ['an MCP client with a token that may commit', call('mcp', withToken)],
    ['an MCP client signed in with OAuth', call('mcp', withOauth)],
    ["an agent in the person's own page (WebMCP)", call('webmcp', onSite)],
    ["a token presented to the site's own route", call('ui', withToken)],
    ['nobody, on the site', call('ui', null)],
  ])('refuses %s FORBIDDEN, with evidence, and runs nothing', async (_who, invocation) => {
    const { pipeline, evidence, runs } = sitePipeline();
    const refused = await pipeline.invoke(invocation);
    expect(refused).toMatchObject({ ok: false, code: 'FORBIDDEN', retryable: false, message: 'Only the person can do this, on the site.' });
    expect(runs).toEqual([]);
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({ tool: 'confirm_sensitive_data', surface: invocation.surface, authorization: 'denied', outcomeCode: 'FORBIDDEN' });
  });

  it('refuses an unknown tool and bad input the same way, before looking at either', async () => {
    const { pipeline, runs } = sitePipeline();
    expect(await pipeline.invoke({ tool: 'drop_everything', input: {}, principal: withToken, surface: 'mcp' })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await pipeline.invoke({ tool: 'confirm_sensitive_data', input: { draft_id: 7 }, principal: withToken, surface: 'mcp' })).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(runs).toEqual([]);
  });

  it('runs the call of the person in their browser session on the site', async () => {
    const { pipeline, evidence, runs } = sitePipeline();
    const done = await pipeline.invoke(call('ui', onSite));
    expect(done).toMatchObject({ ok: true, code: 'SUCCESS', data: { confirmed: true }, stateVersion: 2 });
    expect(runs).toEqual(['drf-1']);
    expect(evidence[0]).toMatchObject({ surface: 'ui', principalRef: 'ses-mei', authorization: 'allowed', outcomeCode: 'SUCCESS' });
  });
});

describe('MCP surfaces and a site-only catalog', () => {
  it('cannot be built on one: the tool server, the HTTP endpoint and stdio all throw at construction', () => {
    const { pipeline } = sitePipeline();
    const options = { serverInfo: { name: 'rawdata-site', version: '1.0.0' }, catalog: siteCatalog, pipeline };
    expect(() => createMcpToolServer(options, async () => onSite)).toThrow(/site-only \(confirm_sensitive_data\)/);
    expect(() => createMcpHttpEndpoint(options)).toThrow(/never offered to agents/);
    expect(() => serveMcpOverStdio({ ...options, principal: async () => onSite })).toThrow(/never offered to agents/);
  });
});
