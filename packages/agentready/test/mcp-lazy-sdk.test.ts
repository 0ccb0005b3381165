/**
 * The `/mcp` endpoint loads the MCP server SDK on its first request, not
 * when the site is built: a site answers its pages without it, and its first
 * MCP request loads it (docs/benchmarks.md, P6). A load that fails answers
 * that request 500, and the next request loads again.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SITE_PROCESS = fileURLToPath(new URL('./support/lazy-sdk-process.ts', import.meta.url));

type Step = { status: number; text: string; sdkLoaded: boolean };

/** Runs lazy-sdk-process.ts with `env` added, and parses what it prints. */
async function runSite<T>(env: Record<string, string> = {}): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', SITE_PROCESS], {
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout) as T;
}

describe('createMcpHttpEndpoint at start', () => {
  it('answers a page before any /mcp request without the SDK loaded, and loads it for the first MCP request', async () => {
    const { afterPage, afterInitialize } = await runSite<{ afterPage: Step; afterInitialize: Step }>();
    expect(afterPage).toEqual({ status: 200, text: 'Welcome', sdkLoaded: false });
    expect(afterInitialize.status).toBe(200);
    expect(afterInitialize.text).toContain('"serverInfo":{"name":"echo"');
    expect(afterInitialize.sdkLoaded).toBe(true);
  }, 60_000);

  it('answers 500 with JSON-RPC error -32603 when the first load fails, revealing nothing inside, tells onError why, and loads again on the next request', async () => {
    const { afterPage, afterFailedInitialize, afterPageBetween, afterInitialize, errors } = await runSite<{
      afterPage: Step;
      afterFailedInitialize: Step;
      afterPageBetween: Step;
      afterInitialize: Step;
      errors: string[];
    }>({ AGENTREADY_TEST_FAIL_FIRST_MCP_LOAD: '1' });
    expect(afterPage).toEqual({ status: 200, text: 'Welcome', sdkLoaded: false });

    expect(afterFailedInitialize.status).toBe(500);
    expect(afterFailedInitialize.sdkLoaded).toBe(false);
    const failure = JSON.parse(afterFailedInitialize.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(failure).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: expect.any(String) } });
    // Neither the cause, nor a path, nor a stack frame reaches the client.
    expect(afterFailedInitialize.text).not.toMatch(/Simulated|http-endpoint-serving|\/src\/|file:|\bat \S+ \(|\.ts\b/);

    expect(afterPageBetween).toEqual({ status: 200, text: 'Welcome', sdkLoaded: false });

    expect(afterInitialize.status).toBe(200);
    expect(afterInitialize.text).toContain('"serverInfo":{"name":"echo"');
    expect(afterInitialize.sdkLoaded).toBe(true);

    // The operator learns the cause, once: the failure is not reported again by the request that succeeded.
    expect(errors).toEqual([expect.stringMatching(/^Simulated load failure: cannot read \/.*http-endpoint-serving\.ts$/)]);
  }, 60_000);
});
