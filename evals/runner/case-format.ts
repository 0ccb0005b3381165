/**
 * @module The case file format, declared once in zod: Chrome's webmcp-evals
 * cases (`{ name, messages, expectedCall }`, argument matchers, ordered and
 * unordered groups, `null` for "no tool") plus what an AgentReady case also
 * states: the app and surface, the signed-in person, what the person did
 * before, several turns with the expected call at each, each call's result
 * code, the tools that must not be called, and the state afterwards.
 *
 * @see https://github.com/GoogleChromeLabs/webmcp-tools/tree/main/webmcp-evals (the format this extends)
 */
import { ERROR_CODE_LIST } from 'agentready';
import { z } from 'zod';

/** The apps a case can run against. */
export const EVAL_APPS = ['events', 'rawdata', 'giftgenius'] as const;
/** An app a case runs against. */
export type EvalApp = (typeof EVAL_APPS)[number];

/** The surfaces a case can run on: the page's WebMCP in Chromium, or MCP with the official client. */
export const EVAL_SURFACES = ['webmcp', 'mcp'] as const;
/** A surface a case runs on. */
export type EvalSurface = (typeof EVAL_SURFACES)[number];

/** The result codes a call may be expected to answer: `SUCCESS` and every error code of the envelope. */
export const RESULT_CODES = ['SUCCESS', ...ERROR_CODE_LIST] as const;

/** One message of a conversation, as webmcp-evals writes it. */
export const messageSchema = z.discriminatedUnion('type', [
  z.strictObject({ role: z.enum(['user', 'model']), type: z.literal('message'), content: z.string().min(1) }),
  z.strictObject({ role: z.literal('model'), type: z.literal('functioncall'), name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) }),
  z.strictObject({ role: z.literal('user'), type: z.literal('functionresponse'), name: z.string().min(1), response: z.unknown() }),
]);
/** A message of a case. */
export type CaseMessage = z.infer<typeof messageSchema>;

/** One expected tool call: webmcp-evals' fields, plus the result code and the arguments replay sends. */
export const functionCallSchema = z.strictObject({
  functionName: z.string().min(1),
  /** What the call's arguments must match (matchers allowed); omitted or null: any arguments. */
  arguments: z.record(z.string(), z.unknown()).nullable().optional(),
  /** What the tool's result (the envelope) must match; matchers allowed. */
  result: z.unknown().optional(),
  /** Webmcp-evals' stand-in output for its local mode; kept so such files load, not used here (every call here runs for real). */
  mockOutput: z.unknown().optional(),
  /** The call may be left out by a model; replay makes it. */
  optional: z.boolean().optional(),
  /** The result code the call must answer. Default `SUCCESS`. */
  code: z.enum(RESULT_CODES).optional(),
  /** Concrete arguments for replay where `arguments` holds matchers. */
  replayArguments: z.record(z.string(), z.unknown()).optional(),
  /** A name later arguments refer to with `{ "$from": "<as>.data.…" }`: this call's envelope. */
  as: z
    .string()
    .regex(/^[a-z][a-zA-Z0-9_]*$/)
    .optional(),
});
/** An expected tool call. */
export type ExpectedFunctionCall = z.infer<typeof functionCallSchema>;

/** An expected call, or an ordered or unordered group of them (webmcp-evals' `ExpectedCallNode`). */
export type ExpectedCallNode = ExpectedFunctionCall | { ordered: ExpectedCallNode[] } | { unordered: ExpectedCallNode[] };

/** {@link ExpectedCallNode} as a schema. */
export const expectedCallNodeSchema: z.ZodType<ExpectedCallNode> = z.lazy(() =>
  z.union([
    functionCallSchema,
    z.strictObject({ ordered: z.array(expectedCallNodeSchema).min(1) }),
    z.strictObject({ unordered: z.array(expectedCallNodeSchema).min(1) }),
  ]),
);

/** Something the person does on the site between turns (never a tool call): the app's harness knows how. */
export const personActionSchema = z.strictObject({
  /** The action's name, one of the app's person actions (docs/evals.md lists them). */
  do: z.string().min(1),
  /** Its arguments; `{ "$from": … }` refers to an earlier call's or action's answer. */
  with: z.record(z.string(), z.unknown()).optional(),
  /** A name later arguments refer to: this action's answer. */
  as: z
    .string()
    .regex(/^[a-z][a-zA-Z0-9_]*$/)
    .optional(),
});
/** A person action. */
export type PersonAction = z.infer<typeof personActionSchema>;

/** One turn: what the person does and says, and the calls expected in answer (`null`: no tool applies). */
export const turnSchema = z.strictObject({
  /** WebMCP only: the page the person opens before this turn (a path on the site). */
  navigate: z.string().startsWith('/').optional(),
  /** What the person does on the site before this turn (confirm a draft, register…). */
  person: z.array(personActionSchema).optional(),
  messages: z.array(messageSchema).min(1),
  expectedCall: z.array(expectedCallNodeSchema).min(1).nullable(),
});
/** A turn of a case. */
export type CaseTurn = z.infer<typeof turnSchema>;

/** Who is signed in: a new person of the site (`signed-in`), or nobody (`visitor`). */
export const PERSON_KINDS = ['signed-in', 'visitor'] as const;

/** A case as an AgentReady case file states it. */
export const agentReadyCaseSchema = z
  .strictObject({
    name: z.string().min(1),
    /** Which of the article's question kinds or the app's journeys it belongs to. */
    kind: z.string().min(1).optional(),
    /** Default: the folder the file is in (evals/<app>/). */
    app: z.enum(EVAL_APPS).optional(),
    surface: z.enum(EVAL_SURFACES),
    /** WebMCP: the page the case starts on. Default `/`. */
    start: z.string().startsWith('/').optional(),
    person: z.enum(PERSON_KINDS).default('signed-in'),
    /** Settings the app is started with for this case (e.g. `{ "toolCallsPerMinute": 3 }`); the harness names which it knows. */
    settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    /** What the person did before the conversation (person actions). */
    setup: z.array(personActionSchema).optional(),
    turns: z.array(turnSchema).min(1),
    /** Tools no call of the case may name. */
    forbiddenTools: z.array(z.string().min(1)).optional(),
    /** What the app's state must match afterwards, by the harness's state names (docs/evals.md); matchers allowed. */
    expectedState: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((found) => found.surface === 'webmcp' || (found.start === undefined && found.turns.every((turn) => turn.navigate === undefined)), {
    message: 'start and navigate are pages of the site: only a webmcp case has them',
    path: ['surface'],
  });
/** A case as written in a file. */
export type AgentReadyCase = z.infer<typeof agentReadyCaseSchema>;

/** A case in plain webmcp-evals form: one conversation, its expected calls. */
export const webmcpEvalsCaseSchema = z.strictObject({
  name: z.string().optional(),
  messages: z.array(messageSchema).min(1),
  expectedCall: z.array(expectedCallNodeSchema).min(1).nullable(),
});
/** A plain webmcp-evals case. */
export type WebmcpEvalsCase = z.infer<typeof webmcpEvalsCaseSchema>;

/** A case file: one case or a list; each entry either form. */
export const caseFileSchema = z.union([z.array(z.unknown()).min(1), z.record(z.string(), z.unknown())]);

/** A case ready to run: the file's case with app, surface and defaults settled, and where it came from. */
export type EvalCase = Omit<AgentReadyCase, 'app' | 'start'> & {
  app: EvalApp;
  /** WebMCP: the first page; MCP: undefined. */
  start: string | undefined;
  /** `<file path relative to the repository>#<index>`. */
  source: string;
  /** True when the file was in plain webmcp-evals form. */
  plain: boolean;
};
