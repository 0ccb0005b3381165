/**
 * @module Bringing the person to the page where they confirm, through their
 * MCP client: after a tool answered `guidance.requiresHumanConfirmation` with
 * an absolute `confirmationUrl`, a client that declared URL-mode elicitation
 * (`capabilities.elicitation.url`) is asked to open that page for the person.
 * Only the person's click on the site's page mints a confirmation token; this
 * asks nothing of the person but to open the page, and the call's envelope
 * stays what the pipeline answered.
 *
 * - Protocol 2026-07-28 (Streamable HTTP and stdio): the first answer is
 *   `input_required` with the URL elicitation and a `requestState` that
 *   carries the envelope, HMAC-signed by the SDK's `createRequestStateCodec`
 *   and bound to the principal, the tool and its arguments; the client's retry
 *   gets that envelope back with the person's answer, and the tool does not run again.
 * - Protocol 2025-11-25 on a connection that saw `initialize` (stdio): an
 *   `elicitation/create` request with `mode: "url"`, answered before the result.
 * - Protocol 2025-11-25 over stateless HTTP: a server made for one request
 *   holds no client capabilities and cannot send it a request, so nothing is
 *   asked: the result with `confirmationUrl` is the fallback, as for every
 *   client that did not declare URL elicitation.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-mode-elicitation-requests
 */
import { randomBytes, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { readToolResult, type ToolResult, type ToolSuccess } from '../contract/envelope.ts';
import type { Principal } from '../contract/tool-call.ts';
import type { PrincipalLookup } from '../runtime/pipeline.ts';

/** Options of the confirmation page elicitation (`McpToolServerOptions.confirmationPageElicitation`). */
export type ConfirmationPageElicitationOptions = {
  /**
   * The HMAC key that signs `requestState` (at least 32 bytes; a string is
   * taken as UTF-8). Every process that may receive a client's retry must
   * share it. Default: 32 random bytes made once per process, which is
   * enough when one process serves every round of a call (one stdio
   * process; one HTTP process).
   */
  stateKey?: string | Uint8Array;
  /**
   * On a 2025-11-25 connection, how long the result waits for the client's
   * answer to the request to open the page, in milliseconds; past it the
   * result says the client gave no answer. Default: 300 000 (five minutes).
   */
  answerTimeoutMs?: number;
};

/**
 * The `_meta` key of a result whose confirmation page the client was asked
 * to open (same prefix as `agentready/untrustedContent`).
 */
export const CONFIRMATION_PAGE_META_KEY = 'agentready/confirmationPage';

/**
 * What the client answered the request to open the page: the elicitation
 * actions of the spec (`accept`: the person agreed to open it; `decline`;
 * `cancel`: dismissed), or `unanswered` (no answer, an error, a timeout).
 */
export type ConfirmationPageAnswer = 'accept' | 'decline' | 'cancel' | 'unanswered';

/** The `_meta` entry under {@link CONFIRMATION_PAGE_META_KEY}: the page asked about and the answer. */
export type ConfirmationPageMeta = { url: string; answer: ConfirmationPageAnswer };

/** A call as its request state is bound to it: the tool, its arguments as sent, and who calls. */
export type ConfirmationPageCall = { tool: string; input: unknown; principalOf: PrincipalLookup };

/** What the adapter does with a call's envelope: answer it as it is, ask first (`input_required`), or answer it with the client's answer. */
export type ConfirmationPageOffer =
  | { kind: 'none' }
  | { kind: 'input_required'; result: InputRequiredResult }
  | { kind: 'answered'; page: ConfirmationPageMeta };

/** The stored envelope of a retried call and the client's answer. */
export type ResumedConfirmationPage = { envelope: ToolSuccess<unknown>; page: ConfirmationPageMeta };

/** The two steps {@link createConfirmationPageElicitation} gives the `tools/call` handler. */
export type ConfirmationPageElicitation = {
  /**
   * For a retry of the 2026-07-28 flow: the envelope its `requestState`
   * carries and the client's answer, or undefined when there is no state,
   * it does not verify (another key, tampered, expired after 10 minutes,
   * another principal, tool or arguments), the principal cannot be looked
   * up, or it carries no envelope to confirm: the call then runs as a new one.
   */
  resume(call: ConfirmationPageCall, ctx: ServerContext): Promise<ResumedConfirmationPage | undefined>;
  /**
   * After a first call's envelope: asks the client to open the page when
   * the envelope needs a person at an absolute http(s) `confirmationUrl` and
   * the client declared URL elicitation; `message` is what the client shows
   * the person (no URL in it, per the spec).
   */
  offer(call: ConfirmationPageCall, envelope: ToolResult<unknown>, message: string, server: Server, ctx: ServerContext): Promise<ConfirmationPageOffer>;
};

/** The key of the one input request: the page to open. */
const OPEN_CONFIRMATION_PAGE = 'open_confirmation_page';
const DEFAULT_ANSWER_TIMEOUT_MS = 300_000;
/** The first revision whose requests carry their client's capabilities and use `input_required`. */
const FIRST_MULTI_ROUND_TRIP_REVISION = '2026-07-28';
/** Made once per process: a state minted here verifies only in this process unless a key is configured. */
const PROCESS_STATE_KEY = randomBytes(32);

type StatePayload = { envelope: ToolResult<unknown> };

/**
 * The confirmation page elicitation of one server (see the module doc).
 *
 * @throws RangeError when `stateKey` is shorter than 32 bytes (the SDK codec's rule).
 */
export function createConfirmationPageElicitation(options: ConfirmationPageElicitationOptions = {}): ConfirmationPageElicitation {
  const key = options.stateKey ?? PROCESS_STATE_KEY;
  const answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  // Bound per call: the binding needs the principal, looked up asynchronously, which the codec's own bind(ctx) cannot wait for.
  const codecFor = (binding: string) => createRequestStateCodec<StatePayload>({ key, bind: () => binding });
  codecFor('');

  return {
    async resume(call, ctx) {
      const state = ctx.mcpReq.requestState();
      if (typeof state !== 'string') return undefined;
      const principal = await principalOrFailure(call.principalOf);
      if (principal === LOOKUP_FAILED) return undefined;
      let payload: StatePayload;
      try {
        payload = await codecFor(bindingOf(call, principal)).verify(state, ctx);
      } catch {
        return undefined;
      }
      const envelope = readToolResult(payload?.envelope);
      const url = envelope === null ? undefined : pageUrlOf(envelope);
      if (envelope === null || !envelope.ok || url === undefined) return undefined;
      const response = inputResponse(ctx.mcpReq.inputResponses, OPEN_CONFIRMATION_PAGE);
      return { envelope, page: { url, answer: response.kind === 'elicit' ? response.action : 'unanswered' } };
    },

    async offer(call, envelope, message, server, ctx) {
      const url = pageUrlOf(envelope);
      const era = urlElicitationEra(server, ctx);
      if (url === undefined || era === undefined) return { kind: 'none' };
      if (era === 'legacy') return { kind: 'answered', page: { url, answer: await askOverConnection(ctx, message, url, answerTimeoutMs) } };
      const principal = await principalOrFailure(call.principalOf);
      if (principal === LOOKUP_FAILED) return { kind: 'none' };
      const requestState = await codecFor(bindingOf(call, principal)).mint({ envelope }, ctx);
      const inputRequests = { [OPEN_CONFIRMATION_PAGE]: inputRequired.elicitUrl({ message, url }) };
      return { kind: 'input_required', result: inputRequired({ inputRequests, requestState }) };
    },
  };
}

/**
 * The absolute http(s) page where a person must finish, when the envelope
 * needs one; undefined otherwise (a relative path cannot be opened from a
 * client, and the spec's URL mode is for web pages).
 */
function pageUrlOf(envelope: ToolResult<unknown>): string | undefined {
  if (!envelope.ok || !envelope.guidance.requiresHumanConfirmation) return undefined;
  const url = envelope.guidance.confirmationUrl;
  if (url === undefined || !URL.canParse(url)) return undefined;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:' ? url : undefined;
}

/**
 * Which way this request's client can be asked to open a page: `modern` (its
 * request's own capabilities, 2026-07-28), `legacy` (the capabilities its
 * `initialize` declared on this connection), or undefined when it did not
 * declare `elicitation.url` or none are known (stateless 2025 HTTP).
 */
function urlElicitationEra(server: Server, ctx: ServerContext): 'modern' | 'legacy' | undefined {
  const version = server.getNegotiatedProtocolVersion();
  const modern = version !== undefined && version >= FIRST_MULTI_ROUND_TRIP_REVISION;
  const capabilities = modern
    ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : server.getClientCapabilities();
  // URL support exists only when declared explicitly (an empty `elicitation: {}` means forms).
  if (capabilities?.elicitation?.url === undefined || capabilities.elicitation.url === null) return undefined;
  return modern ? 'modern' : 'legacy';
}

/** Sends the 2025-11-25 `elicitation/create` (URL mode) and reads the client's answer; any failure is `unanswered`. */
async function askOverConnection(ctx: ServerContext, message: string, url: string, timeout: number): Promise<ConfirmationPageAnswer> {
  try {
    const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId: randomUUID() }, { timeout, signal: ctx.mcpReq.signal });
    return answer.action;
  } catch {
    return 'unanswered';
  }
}

const LOOKUP_FAILED = Symbol('principal lookup failed');

/** The caller, or {@link LOOKUP_FAILED} when the lookup throws (the pipeline answers that call TEMPORARY_FAILURE). */
async function principalOrFailure(lookup: PrincipalLookup): Promise<Principal | null | typeof LOOKUP_FAILED> {
  try {
    return await lookup();
  } catch {
    return LOOKUP_FAILED;
  }
}

/**
 * What a state is bound to (the codec keeps only its HMAC): the principal's
 * reference, the tool and its arguments as sent, as RFC 8785 canonical JSON.
 */
function bindingOf(call: ConfirmationPageCall, principal: Principal | null): string {
  return canonicalize({ principal: principal === null ? null : [principal.kind, principal.ref], tool: call.tool, input: call.input ?? null }) ?? '';
}
