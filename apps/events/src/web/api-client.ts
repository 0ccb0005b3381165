/**
 * @module
 * The page's one way to reach the server: a fetch wrapper that opens the
 * session first, sends the CSRF token on every POST and DELETE, and keeps the
 * latest `stateVersion` any answer carried.
 */
import { ERROR_CODE_LIST, fail, readToolResult, type ErrorCode, type ToolResult } from 'agentready';
import type { SessionInfo } from './api-shapes.ts';

/**
 * A failed call, as data: the server's code and safe message, or `TEMPORARY_FAILURE` when it could not be reached or named no code;
 * `retryAfterSeconds` when a RATE_LIMITED answer said how long to wait.
 */
export type ApiFailure = { code: string; message: string; field?: string; retryAfterSeconds?: number };

/** The outcome of one REST call. `status` is 0 when no HTTP answer arrived. */
export type ApiAnswer<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiFailure };

/** What {@link createApiClient} returns. */
export type ApiClient = {
  /** Loads `GET /api/session` once (again only after a failure) and answers with it. */
  session(): Promise<ApiAnswer<SessionInfo>>;
  /** `GET path`; `signal` aborts it. */
  get<T>(path: string, signal?: AbortSignal): Promise<ApiAnswer<T>>;
  /** `POST path` with a JSON body and the CSRF header. */
  post<T>(path: string, body: unknown): Promise<ApiAnswer<T>>;
  /** `DELETE path` with the CSRF header. */
  delete<T>(path: string): Promise<ApiAnswer<T>>;
  /**
   * `POST path` of a commit, with `Idempotency-Key: key`: when no answer
   * arrives, or the answer is IN_PROGRESS or TEMPORARY_FAILURE, sends the very
   * same request again (after `retryAfterSeconds`, else 1 second, at most 5),
   * up to {@link COMMIT_ATTEMPTS} times in all. The server acts once per key
   * and answers a retry with the first answer, so a lost answer or a dropped
   * connection never registers twice.
   */
  postCommit<T>(path: string, body: unknown, key: string): Promise<ApiAnswer<T>>;
  /**
   * `POST /api/tools/:name` with `input` as the body and the CSRF header, and
   * answers with the tool result envelope the server sent (success or failure,
   * whatever the HTTP status). Its shape is checked, not its `data` (the page
   * tool reads that). A refusal that is not an envelope (the session
   * middleware's 401, a session that could not be opened) is answered with
   * the server's own code and its fixed `retryable` (UNAUTHENTICATED: not
   * retryable). When the server cannot be reached or names no code, answers
   * TEMPORARY_FAILURE (retryable) instead of throwing.
   */
  postTool(name: string, input: unknown): Promise<ToolResult<unknown>>;
  /** The highest `stateVersion` seen so far (0 before the session is loaded). */
  getStateVersion(): number;
};

/** Options of {@link createApiClient}. */
export type ApiClientOptions = {
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Prefix of every path. Default: `''` (same origin). */
  baseUrl?: string;
};

/** How many times {@link ApiClient.postCommit} sends one commit at most. */
export const COMMIT_ATTEMPTS = 3;

/** A commit answered so may still be done by sending it again with its key: nothing arrived, it was still running, or the service failed. */
function isWorthRetrying(code: string): boolean {
  return code === 'TEMPORARY_FAILURE' || code === 'IN_PROGRESS';
}

const UNREACHABLE_MESSAGE = 'The site could not be reached. Check your connection and try again.';
const UNREADABLE_MESSAGE = 'The site answered in a way this page could not read. Try again in a moment.';
const REFUSED_MESSAGE = 'The site refused this request.';

/** `code` when it is one of the envelope's error codes, else null. */
function knownCode(code: string): ErrorCode | null {
  return (ERROR_CODE_LIST as readonly string[]).includes(code) ? (code as ErrorCode) : null;
}

/**
 * A refusal of the REST API (docs/events-api.md, "Errors"): the server answers
 * every one as an envelope failure; only its code, message and field are read
 * here. Null when `body` names no code.
 */
function refusalOf(body: unknown): ApiFailure | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { code, message, field, retryAfterSeconds } = body as Record<string, unknown>;
  if (typeof code !== 'string' || (message !== undefined && typeof message !== 'string') || (field !== undefined && typeof field !== 'string')) return null;
  const refusal: ApiFailure = { code, message: message ?? REFUSED_MESSAGE };
  if (field !== undefined) refusal.field = field;
  if (typeof retryAfterSeconds === 'number' && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) refusal.retryAfterSeconds = retryAfterSeconds;
  return refusal;
}

/**
 * Creates the API client of one page load.
 *
 * Every call waits for the session first, so the session cookie is set before
 * any other request: concurrent first requests would otherwise each open a
 * session and the CSRF token could belong to the wrong one.
 *
 * @see docs/events-api.md (sessions, CSRF, `stateVersion`)
 * @example
 * const api = createApiClient();
 * const answer = await api.post('/api/saved', { event_id: 'evt-webmcp-intro' });
 * if (!answer.ok) show(answer.error.message);
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const baseUrl = options.baseUrl ?? '';
  let stateVersion = 0;
  let csrfToken: string | null = null;
  let sessionRequest: Promise<ApiAnswer<SessionInfo>> | null = null;

  function noteStateVersion(body: unknown): void {
    if (typeof body === 'object' && body !== null && 'stateVersion' in body) {
      const value = body.stateVersion;
      if (typeof value === 'number' && value > stateVersion) stateVersion = value;
    }
  }

  /** One HTTP exchange; `null` when no answer arrived. Rethrows only an abort the caller asked for. */
  async function exchange(
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; ok: boolean; body: unknown } | null> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && csrfToken !== null) headers['X-CSRF-Token'] = csrfToken;
    let response: Response;
    try {
      response = await fetchImpl(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: signal ?? null,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      return null;
    }
    const parsed = await readJson(response);
    noteStateVersion(parsed);
    if (isSessionLost(parsed)) {
      // The server forgot this session (e.g. its database was reset): the next call opens a new one.
      sessionRequest = null;
      csrfToken = null;
    }
    return { status: response.status, ok: response.ok, body: parsed };
  }

  async function send<T>(method: string, path: string, body: unknown, signal?: AbortSignal, extraHeaders?: Record<string, string>): Promise<ApiAnswer<T>> {
    const answer = await exchange(method, path, body, signal, extraHeaders);
    if (answer === null) return { ok: false, status: 0, error: { code: 'TEMPORARY_FAILURE', message: UNREACHABLE_MESSAGE } };
    if (answer.ok && answer.body !== undefined) return { ok: true, status: answer.status, data: answer.body as T };
    return { ok: false, status: answer.status, error: failureFrom(answer.body) };
  }

  function session(): Promise<ApiAnswer<SessionInfo>> {
    sessionRequest ??= send<SessionInfo>('GET', '/api/session', undefined).then(function rememberSession(answer) {
      if (answer.ok) csrfToken = answer.data.csrfToken;
      else sessionRequest = null;
      return answer;
    });
    return sessionRequest;
  }

  async function afterSession<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<ApiAnswer<T>> {
    const opened = await session();
    if (!opened.ok) return opened;
    return send<T>(method, path, body, signal);
  }

  return {
    session,
    get: (path, signal) => afterSession('GET', path, undefined, signal),
    post: (path, body) => afterSession('POST', path, body ?? {}),
    delete: (path) => afterSession('DELETE', path, undefined),
    async postCommit<T>(path: string, body: unknown, key: string) {
      const opened = await session();
      if (!opened.ok) return opened;
      return sendWithRetries(() => send<T>('POST', path, body, undefined, { 'Idempotency-Key': key }));
    },
    async postTool(name, input) {
      const opened = await session();
      // The session could not be opened: the server's own code (a 401 is UNAUTHENTICATED, not retryable), else nothing arrived.
      if (!opened.ok) return fail({ code: knownCode(opened.error.code) ?? 'TEMPORARY_FAILURE', message: opened.error.message }, stateVersion);
      const answer = await exchange('POST', `/api/tools/${encodeURIComponent(name)}`, input ?? {});
      // The pipeline answers failures as envelopes too (with a 4xx status): an envelope is handed on whatever the status.
      const envelope = answer === null ? null : readToolResult(answer.body);
      if (envelope !== null) return envelope;
      const refusal = answer === null ? null : refusalOf(answer.body);
      const code = refusal === null ? null : knownCode(refusal.code);
      if (refusal !== null && code !== null) return fail({ code, message: refusal.message }, stateVersion);
      return fail({ code: 'TEMPORARY_FAILURE', message: answer === null ? UNREACHABLE_MESSAGE : UNREADABLE_MESSAGE }, stateVersion);
    },
    getStateVersion: () => stateVersion,
  };
}

/**
 * Sends a commit (`attempt`, the very same request with its idempotency key
 * each time) until it answers something other than a lost answer,
 * IN_PROGRESS or TEMPORARY_FAILURE, at most {@link COMMIT_ATTEMPTS} times,
 * waiting `retryAfterSeconds` (else 1 second, at most 5) between.
 */
async function sendWithRetries<T>(attempt: () => Promise<ApiAnswer<T>>): Promise<ApiAnswer<T>> {
  let answer = await attempt();
  for (let sent = 1; sent < COMMIT_ATTEMPTS && !answer.ok && isWorthRetrying(answer.error.code); sent += 1) {
    const waitSeconds = Math.min(5, answer.error.retryAfterSeconds ?? 1);
    await new Promise((resolve) => setTimeout(resolve, 1000 * waitSeconds));
    answer = await attempt();
  }
  return answer;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** The server's refusal as it stated it; TEMPORARY_FAILURE only when the body names no code (a proxy's page, no body). */
function failureFrom(body: unknown): ApiFailure {
  return refusalOf(body) ?? { code: 'TEMPORARY_FAILURE', message: UNREADABLE_MESSAGE };
}

function isSessionLost(body: unknown): boolean {
  const refusal = refusalOf(body);
  return refusal !== null && (refusal.code === 'SESSION_EXPIRED' || refusal.code === 'UNAUTHENTICATED');
}
