/**
 * The `/mcp` endpoint loads the MCP server SDK on its first request, not
 * when the site is built: a site answers its pages without it, and its first
 * MCP request loads it (docs/benchmarks.md, P6).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SITE_PROCESS = fileURLToPath(new URL('./support/lazy-sdk-process.ts', import.meta.url));

type Step = { status: number; text: string; sdkLoaded: boolean };

describe('createMcpHttpEndpoint at start', () => {
  it('answers a page before any /mcp request without the SDK loaded, and loads it for the first MCP request', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', SITE_PROCESS]);
    const { afterPage, afterInitialize } = JSON.parse(stdout) as { afterPage: Step; afterInitialize: Step };
    expect(afterPage).toEqual({ status: 200, text: 'Welcome', sdkLoaded: false });
    expect(afterInitialize.status).toBe(200);
    expect(afterInitialize.text).toContain('"serverInfo":{"name":"echo"');
    expect(afterInitialize.sdkLoaded).toBe(true);
  }, 60_000);
});
