/**
 * @module R5, many MCP clients on one instance: the Events site started as
 * `npm start` starts it (`apps/events/src/server/main.ts`, a new SQLite file,
 * no tool-call limit, so the figure is the site's and not its limiter's),
 * 500 clients calling `search_events({keyword: "WebMCP"})` over `/mcp` for
 * 60 s once all are connected (bench/mcp-load.ts says what a client and an
 * error are, and why the first calls, made as the 500 connect at once, are
 * figures of their own row). The baseline is one client calling alone for
 * 5 s on the same site, just before. Goal: 0 errors and p99 ≤ 500 ms. A
 * quick run: 50 clients for 5 s.
 *
 * Before that, on the site as it started, what refused bodies leave behind: 20 clients at
 * once each send a 20 MB body without a declared length (chunked) to
 * `/mcp`, over its 4 MiB limit; the row is how much the process's resident
 * memory (`VmRSS`, /proc/<pid>/status, Linux) grew from before they were
 * sent until every one was answered, and how many were answered 413.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSiteProcess } from '@agentready/testing';
import { REPO } from './client-build.ts';
import { figureRow, value, type FigureRow } from './figures-table.ts';
import { runMcpLoad, type LoadCall } from './mcp-load.ts';

const EVENTS_MAIN = join(REPO, 'apps/events/src/server/main.ts');
const SEARCH: LoadCall = { tool: 'search_events', arguments: { keyword: 'WebMCP' } };
/** The goal's bound on the 99th percentile, in ms. */
const P99_GOAL_MS = 500;
/** Refused bodies sent at once, and the size of each, in bytes. */
const REFUSED_BODIES = 20;
const REFUSED_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Measures R5 (see the module).
 *
 * @throws when the site does not start.
 */
export async function measureManyClients(quick = false): Promise<FigureRow[]> {
  const clients = quick ? 50 : 500;
  const seconds = quick ? 5 : 60;
  const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-r5-'));
  const site = await startSiteProcess({
    entry: EVENTS_MAIN,
    env: { DATABASE_URL: pathToFileURL(join(folder, 'events.sqlite')).href, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0' },
    listeningMessage: 'AgentReady Events is listening',
  });
  try {
    const url = `${site.url}/mcp`;
    // First, on the site as it started: what the refused bodies leave is not hidden in memory a load grew.
    const rssBefore = residentBytes(site.pid);
    const statuses = await Promise.all(Array.from({ length: REFUSED_BODIES }, () => sendChunkedBody(url, REFUSED_BODY_BYTES)));
    const rssAfter = residentBytes(site.pid);
    const refused = statuses.filter((status) => status === 413).length;
    const alone = await runMcpLoad({ urls: [url], clients: 1, seconds: quick ? 1 : 5, callOf: () => SEARCH });
    const loadBefore = loadavg()[0]!;
    const many = await runMcpLoad({ urls: [url], clients, seconds, callOf: () => SEARCH });
    const met = many.errors === 0 && many.connecting.errors === 0 && many.calls > 0 && many.p99 <= P99_GOAL_MS;
    const connecting = many.connecting;
    return [
      figureRow({
        section: 'R5',
        what: `${REFUSED_BODIES} chunked 20 MB bodies to /mcp at once (${refused} answered 413): growth of the site's resident memory`,
        figure: value(rssAfter - rssBefore, 'bytes'),
        baseline: { what: 'resident memory before', figure: value(rssBefore, 'bytes') },
        details: { bodies: REFUSED_BODIES, bodyBytes: REFUSED_BODY_BYTES, answered413: refused, rssBefore, rssAfter, statuses: statuses.join(' ') },
      }),
      figureRow({
        section: 'R5',
        what: `${clients} MCP clients connecting at once, one Events instance (SQLite): p99 of their first calls, ${connecting.errors} errors, p50 ${connecting.p50.toFixed(0)} ms, the last answered after ${connecting.seconds.toFixed(1)} s`,
        figure: value(connecting.p99, 'ms'),
        baseline: { what: `1 client alone: p99 of ${alone.calls} calls`, figure: value(alone.p99, 'ms') },
        details: {
          clients,
          calls: connecting.calls,
          errors: connecting.errors,
          p50: Number(connecting.p50.toFixed(1)),
          p99: Number(connecting.p99.toFixed(1)),
          max: Number(connecting.max.toFixed(1)),
          seconds: Number(connecting.seconds.toFixed(1)),
        },
      }),
      figureRow({
        section: 'R5',
        what: `${clients} MCP clients searching ${seconds} s once connected, one Events instance (SQLite): p99 of ${many.calls} calls, ${many.errors} errors, p50 ${many.p50.toFixed(0)} ms, max ${many.max.toFixed(0)} ms, ${many.perSecond.toFixed(0)} calls/s`,
        figure: value(many.p99, 'ms'),
        baseline: { what: `1 client alone: p99 of ${alone.calls} calls`, figure: value(alone.p99, 'ms') },
        goal: { text: `0 errors, p99 ≤ ${P99_GOAL_MS} ms`, met },
        details: {
          clients,
          seconds: Number(many.seconds.toFixed(1)),
          calls: many.calls,
          errors: many.errors,
          firstErrors: many.firstErrors.map(([problem, count]) => `${count}× ${problem}`).join('; '),
          p50: Number(many.p50.toFixed(1)),
          p99: Number(many.p99.toFixed(1)),
          max: Number(many.max.toFixed(1)),
          callsPerSecond: Number(many.perSecond.toFixed(1)),
          aloneP50: Number(alone.p50.toFixed(2)),
          aloneErrors: alone.errors,
          loadAverageBefore: Number(loadBefore.toFixed(2)),
          loadAverageAfter: Number(loadavg()[0]!.toFixed(2)),
        },
      }),
    ];
  } finally {
    await site.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The resident memory of process `pid`, in bytes (Linux: `VmRSS` in /proc/<pid>/status). */
function residentBytes(pid: number): number {
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kilobytes === undefined) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(kilobytes) * 1024;
}

/**
 * POSTs `bytes` of body to `url` in 1 MiB chunks without a declared length,
 * as fast as the connection takes them, until the answer comes.
 *
 * @returns the answer's status, or 0 when the connection failed before one.
 */
function sendChunkedBody(url: string, bytes: number): Promise<number> {
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  return new Promise((resolve) => {
    const sent = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    let written = 0;
    let answered = false;
    sent.on('response', (response) => {
      answered = true;
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    sent.on('error', () => {
      if (!answered) resolve(0);
    });
    const pump = () => {
      while (written < bytes && !answered) {
        written += chunk.length;
        if (!sent.write(chunk)) return void sent.once('drain', pump);
      }
      sent.end();
    };
    pump();
  });
}
