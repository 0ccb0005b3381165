/**
 * @module The widget's entry (the MCP Apps view): connects to the host with
 * ext-apps' App over postMessage, feeds the model's tool input and result to
 * the flow, renders the flow's state with Preact, applies the host's theme
 * and style variables, and reports every CSP violation to the host's log.
 */
import './zod-without-eval.ts';
import { render } from 'preact';
import { App, PostMessageTransport, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { GiftFinderFlow, type ViewState } from './gift-finder-flow.ts';
import { GiftFinderView } from './gift-finder-view.tsx';
import { reportCspViolations, type CspViolationReport } from './csp-violation-reporting.ts';
import type { Locality } from './checkout-views.tsx';

/** The logger name of the widget's log messages to the host. */
const LOGGER = 'giftgenius-widget';

const root = document.getElementById('gift-finder')!;
const app = new App({ name: 'giftgenius-gift-finder', version: '1.0.0' }, {}, { autoResize: true });
const locality: Locality = { locale: undefined, timeZone: undefined };
let connected = false;
const pendingViolations: CspViolationReport[] = [];

const flow = new GiftFinderFlow(
  {
    callServerTool: (call) => app.callServerTool(call),
    openLink: async (url) => {
      const answer = await app.openLink({ url });
      if (answer.isError) throw new Error('The host refused to open the link.');
    },
    newIdempotencyKey: () => crypto.randomUUID(),
  },
  show,
);

function show(state: ViewState): void {
  render(<GiftFinderView state={state} flow={flow} locality={locality} />, root);
}

function sendViolation(violation: CspViolationReport): void {
  void app.sendLog({ level: 'warning', logger: LOGGER, data: violation });
}

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context === undefined) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  if (context.locale) {
    locality.locale = context.locale;
    document.documentElement.lang = context.locale;
  }
  if (context.timeZone) locality.timeZone = context.timeZone;
}

// Violations can happen before the handshake ends; they are sent once it has.
reportCspViolations(document, (violation) => (connected ? sendViolation(violation) : pendingViolations.push(violation)));

// Handlers first: the host sends the tool input and result right after the handshake.
app.ontoolinput = ({ arguments: args }) => flow.toolInput(app.getHostContext()?.toolInfo?.tool.name ?? null, args ?? {});
app.ontoolresult = (result) => flow.toolResult(result);
app.ontoolcancelled = () => flow.toolCancelled();
app.onhostcontextchanged = (change) => {
  applyHostContext(change);
  show(flow.state);
};
app.onteardown = async () => ({});

async function start(): Promise<void> {
  show(flow.state);
  await app.connect(new PostMessageTransport(window.parent, window.parent));
  connected = true;
  applyHostContext(app.getHostContext());
  show(flow.state);
  for (const violation of pendingViolations.splice(0)) sendViolation(violation);
}

void start();
