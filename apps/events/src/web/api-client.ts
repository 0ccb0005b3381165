/**
 * @module
 * The page's one way to reach the server: a fetch wrapper that opens the
 * session first, sends the CSRF token on every POST and DELETE, and keeps the
 * latest `stateVersion` any answer carried.
 */
import type { SessionInfo } from './api-shapes.ts';

/**
 * A failed call, as data: the server's code and safe message, or `TEMPORARY_FAILURE` when it could not be reached or named no code;
 * `retryAfterSeconds` when a RATE_LIMITED answer said how long to wait.
 */
export type ApiFailure = { code: string; message: string; field?: string; retryAfterSeconds?: number };

/** The outcome of one REST call. `status` is 0 when no HTTP answer arrived. */
export type ApiAnswer<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiFailure };

/** An HTTP answer as it came, whatever its status: the status and the parsed JSON body (undefined when it had none, or not JSON). */
export type HttpAnswer = { status: number; body: unknown };

/** What {@link createApiClient} returns. */
export type ApiClient = {
  /** Loads `GET /api/session` once (again only after a failure) and answers with it. */
  session(): Promise<ApiAnswer<SessionInfo>>;
  /** `GET path`; `signal` aborts it. */
  get<T>(path: string, signal?: AbortSignal): Promise<ApiAnswer<T>>;
  /**
   * `GET path` as the browser's cookies stand, never opening a session (the
   * server answers a read without a live session as nobody's). For asking who
   * is signed in after the session was refused.
   */
  getWithoutSession<T>(path: string): Promise<ApiAnswer<T>>;
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
   * `POST path` with a JSON body and the CSRF header, answered with the HTTP
   * answer as it came, whatever its status (`data`), for a caller that reads
   * the body's shape itself (a tool call's result envelope, page-tool-calls.ts).
   * Not ok only when nothing was sent or nothing arrived: the session could not
   * be opened (its refusal), or the server could not be reached
   * (TEMPORARY_FAILURE, status 0).
   */
  postForAnswer(path: string, body: unknown): Promise<ApiAnswer<HttpAnswer>>;
  /** The highest `stateVersion` seen so far (0 before the session is loaded). */
  getStateVersion(): number;
};

/** Options of {@link createApiClient}. */
export type ApiClientOptions = {
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Prefix of every path. Default: `''` (same origin). */
  baseUrl?: string;
  /**
   * Called when an answer refuses the session (UNAUTHENTICATED or
   * SESSION_EXPIRED: it ended, or the request carried a second session
   * cookie). No new session is opened until the promise it answers settles, so
   * the page can first show who is signed in now. Default: none.
   */
  onSessionRefused?: () => Promise<void>;
  /**
   * Whether the page on screen shows someone signed in. A session opened while
   * it does, that turns out to be a visitor's (the person's session ended
   * before this page's first call), is answered SESSION_EXPIRED and handled as
   * a refused session ({@link ApiClientOptions.onSessionRefused}), so no call
   * runs as a new visitor while the page still shows the person. Default: never.
   */
  pageShowsSignedIn?: () => boolean;
};

const SESSION_ENDED_MESSAGE = 'Your session has ended, so nothing was done. Sign in again, then try again.';

/** How many times {@link ApiClient.postCommit} sends one commit at most. */
export const COMMIT_ATTEMPTS = 3;

/** A commit answered so may still be done by sending it again with its key: nothing arrived, it was still running, or the service failed. */
function isWorthRetrying(code: string): boolean {
  return code === 'TEMPORARY_FAILURE' || code === 'IN_PROGRESS';
}

const UNREACHABLE_MESSAGE = 'The site could not be reached. Check your connection and try again.';

/** What the page says when an answer cannot be read (a proxy's page, no body). */
export const UNREADABLE_MESSAGE = 'The site answered in a way this page could not read. Try again in a moment.';
const REFUSED_MESSAGE = 'The site refused this request.';

/**
 * A refusal of the REST API (docs/events-api.md, "Errors"): the server answers
 * every one as an envelope failure; only its code, message, field and
 * `retryAfterSeconds` are read here. Null when `body` names no code.
 */
export function refusalOf(body: unknown): ApiFailure | null {
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
  /** Settles once the page has dealt with the last refused session; the next session is opened after it. */
  let sessionRefusalHandled: Promise<void> = Promise.resolve();

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
    reportRefusedSession = true,
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
    if (isSessionLost(parsed) && reportRefusedSession) {
      // The session ended or was refused: the next call opens a new one, once the page has shown who is signed in now.
      sessionRequest = null;
      csrfToken = null;
      const handled = options.onSessionRefused?.() ?? Promise.resolve();
      sessionRefusalHandled = handled.catch(() => undefined);
    }
    return { status: response.status, ok: response.ok, body: parsed };
  }

  async function send<T>(
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
    extraHeaders?: Record<string, string>,
    reportRefusedSession = true,
  ): Promise<ApiAnswer<T>> {
    const answer = await exchange(method, path, body, signal, extraHeaders, reportRefusedSession);
    if (answer === null) return { ok: false, status: 0, error: { code: 'TEMPORARY_FAILURE', message: UNREACHABLE_MESSAGE } };
    if (answer.ok && answer.body !== undefined) return { ok: true, status: answer.status, data: answer.body as T };
    return { ok: false, status: answer.status, error: failureFrom(answer.body) };
  }

  function session(): Promise<ApiAnswer<SessionInfo>> {
    sessionRequest ??= sessionRefusalHandled
      .then(() => send<SessionInfo>('GET', '/api/session', undefined))
      .then(function rememberSession(answer): ApiAnswer<SessionInfo> {
        if (!answer.ok) {
          sessionRequest = null;
          return answer;
        }
        csrfToken = answer.data.csrfToken;
        if (!answer.data.signedIn && options.pageShowsSignedIn?.() === true) {
          // The page shows the person, the server a visitor: their session ended. This call stops; the next runs once the page shows who is signed in.
          sessionRequest = null;
          sessionRefusalHandled = (options.onSessionRefused?.() ?? Promise.resolve()).catch(() => undefined);
          return sessionEnded();
        }
        return answer;
      });
    return sessionRequest;
  }

  /**
   * The session for a call that starts now: a call started while the page
   * showed someone signed in never runs in a visitor's session (the person's
   * ended meanwhile): it is answered SESSION_EXPIRED.
   */
  async function sessionForCall(): Promise<ApiAnswer<SessionInfo>> {
    const shownSignedIn = options.pageShowsSignedIn?.() === true;
    const opened = await session();
    if (opened.ok && shownSignedIn && !opened.data.signedIn) return sessionEnded();
    return opened;
  }

  async function afterSession<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<ApiAnswer<T>> {
    const opened = await sessionForCall();
    if (!opened.ok) return opened;
    return send<T>(method, path, body, signal);
  }

  return {
    session,
    get: (path, signal) => afterSession('GET', path, undefined, signal),
    getWithoutSession: (path) => send('GET', path, undefined, undefined, {}, false),
    post: (path, body) => afterSession('POST', path, body ?? {}),
    delete: (path) => afterSession('DELETE', path, undefined),
    async postCommit<T>(path: string, body: unknown, key: string) {
      const opened = await sessionForCall();
      if (!opened.ok) return opened;
      return sendWithRetries(() => send<T>('POST', path, body, undefined, { 'Idempotency-Key': key }));
    },
    async postForAnswer(path, body) {
      const opened = await sessionForCall();
      if (!opened.ok) return opened;
      const answer = await exchange('POST', path, body ?? {});
      if (answer === null) return { ok: false, status: 0, error: { code: 'TEMPORARY_FAILURE', message: UNREACHABLE_MESSAGE } };
      return { ok: true, status: answer.status, data: { status: answer.status, body: answer.body } };
    },
    getStateVersion: () => stateVersion,
  };
}

/** The answer to a call whose session ended before it was sent: nothing was done. */
function sessionEnded<T>(): ApiAnswer<T> {
  return { ok: false, status: 401, error: { code: 'SESSION_EXPIRED', message: SESSION_ENDED_MESSAGE } };
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
