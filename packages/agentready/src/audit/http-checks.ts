/**
 * @module The Streamable HTTP rules, probed with requests that change nothing:
 * an `initialize` with a foreign `Origin`, one with a foreign `Host` (loopback
 * servers), a batch of two `ping`s, an `initialize` without the caller's
 * headers (is a 401 answered with Protected Resource Metadata?), and the OAuth
 * metadata documents (is PKCE S256 offered, plain not?).
 */
import { request as httpRequest } from 'node:http';
import { finding, type Finding } from './audit-report.ts';

/** An Origin no server serves (`.invalid` is reserved, RFC 2606). */
const FOREIGN_ORIGIN = 'https://agentready-audit.invalid';
const FOREIGN_HOST = 'agentready-audit.invalid';
const PROTOCOL_VERSION = '2025-11-25';

function initializeBody(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'agentready-audit', version: '1' } },
  });
}

const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * Every HTTP rule's findings for the MCP endpoint at `url`.
 *
 * @param headers the caller's `--header`s, sent with every probe but the 401 one.
 */
export async function httpFindings(url: URL, headers: Record<string, string>): Promise<Finding[]> {
  const found: Finding[] = [];
  const withOrigin = await post(url, { ...JSON_RPC_HEADERS, ...headers, origin: FOREIGN_ORIGIN }, initializeBody(1));
  await endSession(url, headers, withOrigin);
  if (withOrigin.ok)
    found.push(finding('http-foreign-origin-accepted', undefined, `initialize with Origin ${FOREIGN_ORIGIN} was answered ${withOrigin.status}.`));

  if (isLoopback(url) && url.protocol === 'http:') {
    const status = await postWithHost(url, { ...JSON_RPC_HEADERS, ...headers }, initializeBody(2));
    if (status >= 200 && status < 300)
      found.push(finding('http-foreign-host-accepted', undefined, `initialize with Host ${FOREIGN_HOST} was answered ${status}.`));
  }

  found.push(...(await batchFindings(url, headers)));
  found.push(...(await authorizationFindings(url)));
  return found;
}

async function batchFindings(url: URL, headers: Record<string, string>): Promise<Finding[]> {
  const opened = await post(url, { ...JSON_RPC_HEADERS, ...headers }, initializeBody(3));
  if (!opened.ok) return [];
  const session = opened.headers.get('mcp-session-id');
  const sessionHeaders = { ...JSON_RPC_HEADERS, ...headers, 'mcp-protocol-version': PROTOCOL_VERSION, ...(session !== null && { 'mcp-session-id': session }) };
  await post(url, sessionHeaders, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const batch = await post(url, sessionHeaders, JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id: 100 + id, method: 'ping' }))));
  await endSession(url, headers, opened);
  const answeredPings = batch.ok && /"id"\s*:\s*10[12]/.test(batch.body) && /"result"/.test(batch.body);
  return answeredPings ? [finding('http-batch-accepted', undefined, `A JSON-RPC batch of two pings was answered ${batch.status} with results.`)] : [];
}

async function authorizationFindings(url: URL): Promise<Finding[]> {
  const found: Finding[] = [];
  const anonymous = await post(url, JSON_RPC_HEADERS, initializeBody(4));
  await endSession(url, {}, anonymous);
  const challenge = anonymous.headers.get('www-authenticate') ?? '';
  const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  let metadata = named !== undefined ? await getJson(new URL(named, url)) : undefined;
  metadata ??=
    (await getJson(new URL(`/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`, url))) ??
    (await getJson(new URL('/.well-known/oauth-protected-resource', url)));
  if (anonymous.status === 401 && named === undefined && metadata === undefined) {
    found.push(
      finding(
        'http-401-without-resource-metadata',
        undefined,
        `An unauthenticated initialize was answered 401 with WWW-Authenticate “${challenge || '(none)'}” and no /.well-known/oauth-protected-resource document exists.`,
      ),
    );
  }
  const issuer = Array.isArray(metadata?.['authorization_servers']) ? metadata['authorization_servers'][0] : undefined;
  if (typeof issuer !== 'string') return found;
  const server = await authorizationServerMetadata(new URL(issuer));
  if (server === undefined) return found;
  const methods = Array.isArray(server['code_challenge_methods_supported']) ? server['code_challenge_methods_supported'] : [];
  if (!methods.includes('S256'))
    found.push(
      finding('oauth-pkce-s256-missing', undefined, `The authorization server ${issuer} lists code_challenge_methods_supported ${JSON.stringify(methods)}.`),
    );
  if (methods.includes('plain')) found.push(finding('oauth-pkce-plain-offered', undefined, `The authorization server ${issuer} offers the plain PKCE method.`));
  return found;
}

/** RFC 8414 §3.1 (path inserted after /.well-known/), then OpenID Connect Discovery's two spellings. */
async function authorizationServerMetadata(issuer: URL): Promise<Record<string, unknown> | undefined> {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  for (const candidate of [
    `/.well-known/oauth-authorization-server${path}`,
    `/.well-known/openid-configuration${path}`,
    `${path}/.well-known/openid-configuration`,
  ]) {
    const document = await getJson(new URL(candidate, issuer));
    if (document !== undefined) return document;
  }
  return undefined;
}

type Answer = { ok: boolean; status: number; headers: Headers; body: string };

async function post(url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    return { ok: response.ok, status: response.status, headers: response.headers, body: await bodyStart(response) };
  } catch {
    return { ok: false, status: 0, headers: new Headers(), body: '' };
  }
}

/** The body's first 64 kB; an SSE stream a server keeps open is cut there or when the request times out. */
async function bodyStart(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < 65_536) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // An SSE answer is complete once it holds the result of every request sent.
      if ((response.headers.get('content-type') ?? '').includes('text/event-stream') && /"result"|"error"/.test(text) && text.endsWith('\n\n')) break;
    }
  } catch {
    // A stream cut short still tells what it said so far.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text;
}

/** Ends a session a probe opened (DELETE with its Mcp-Session-Id), so the server keeps nothing of the audit. */
async function endSession(url: URL, headers: Record<string, string>, answer: Answer): Promise<void> {
  const session = answer.headers.get('mcp-session-id');
  if (session === null) return;
  await fetch(url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL_VERSION } }).catch(() => undefined);
}

async function getJson(url: URL): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return undefined;
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** fetch may not set `Host` (a forbidden header), so this probe uses node:http. Answers the status, 0 when no answer came. */
function postWithHost(url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve) => {
    const sent = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, host: FOREIGN_HOST, 'content-length': Buffer.byteLength(body) }, timeout: 15_000 },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    sent.on('error', () => resolve(0));
    sent.on('timeout', () => sent.destroy());
    sent.end(body);
  });
}

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
}
