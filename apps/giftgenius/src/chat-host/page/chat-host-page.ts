/**
 * @module The local chat host's page script: shows whether the person is
 * signed in, lets them pick a ready example or write the arguments a model
 * would send, sends the call through the host (POST /api/model-call), writes
 * the text the model would read into the transcript, and shows the tool's
 * view in a sandboxed frame (view-frame.ts), whose own calls go through the
 * host too (POST /api/app-call). Everything shown is set as text, never as HTML.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { openViewFrame } from './view-frame.ts';

/** A call a model could send: a label for the list, the tool, its arguments. */
type ReadyExample = { label: string; tool: string; arguments: Record<string, unknown> };

/** Ready examples, each one a real question GiftGenius's shop can answer. */
const READY_EXAMPLES: ReadyExample[] = [
  {
    label: 'A parent of 62 who gardens',
    tool: 'suggest_gifts',
    arguments: { recipient: { relationship: 'parent', age: 62 }, interests: ['gardening'], limit: 6 },
  },
  {
    label: 'A friend who loves tea, at most 40 dollars',
    tool: 'suggest_gifts',
    arguments: { recipient: { relationship: 'friend' }, interests: ['tea'], budget: { max: 40 }, currency: 'USD' },
  },
  {
    label: 'A colleague into board games, in euros',
    tool: 'suggest_gifts',
    arguments: { recipient: { relationship: 'colleague' }, interests: ['board-games'], currency: 'EUR' },
  },
];

type OfferedTool = Pick<Tool, 'name' | 'title' | 'description' | 'inputSchema'>;
type HostState = { signedIn: boolean; site: string; tools: OfferedTool[] };
type CallAnswer = { result: CallToolResult; tool: Tool; view?: { url: string; csp?: Record<string, string[]> } } | { error: string };

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const signInState = document.querySelector<HTMLElement>('[data-testid=sign-in-state]')!;
const signInForm = document.querySelector<HTMLFormElement>('[data-testid=sign-in-form]')!;
const signOutForm = document.querySelector<HTMLFormElement>('[data-testid=sign-out-form]')!;
const exampleSelect = byId<HTMLSelectElement>('example');
const toolSelect = byId<HTMLSelectElement>('tool');
const toolDescription = byId<HTMLElement>('tool-description');
const argumentsField = byId<HTMLTextAreaElement>('arguments');
const composeProblem = byId<HTMLElement>('compose-problem');
const transcript = byId<HTMLOListElement>('transcript');
let offeredTools: OfferedTool[] = [];

/** Appends a transcript entry: a heading line and, when given, a preformatted body. */
function say(kind: 'from-model' | 'from-site' | 'from-widget', line: string, body?: string): HTMLLIElement {
  const entry = document.createElement('li');
  entry.className = kind;
  const heading = document.createElement('p');
  heading.textContent = line;
  heading.style.margin = '0';
  entry.append(heading);
  if (body !== undefined) {
    const pre = document.createElement('pre');
    pre.textContent = body;
    entry.append(pre);
  }
  transcript.append(entry);
  return entry;
}

/** The text blocks of a tool result, as a model reads them. */
function textOfResult(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

async function postCall(path: '/api/model-call' | '/api/app-call', name: string, args: Record<string, unknown>): Promise<CallAnswer> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, arguments: args }) });
  return (await response.json()) as CallAnswer;
}

function showTool(name: string): void {
  const tool = offeredTools.find((candidate) => candidate.name === name);
  toolDescription.textContent = tool?.description ?? '';
}

function showExample(index: number): void {
  const example = READY_EXAMPLES[index];
  if (example === undefined) return;
  toolSelect.value = example.tool;
  showTool(example.tool);
  argumentsField.value = JSON.stringify(example.arguments, null, 2);
}

async function loadHostState(): Promise<void> {
  const response = await fetch('/api/host');
  if (!response.ok) {
    signInState.textContent = ((await response.json()) as { error: string }).error;
    return;
  }
  const state = (await response.json()) as HostState;
  offeredTools = state.tools;
  signInState.textContent = state.signedIn
    ? `Signed in to GiftGenius at ${state.site}. The host calls its tools as you.`
    : `Not signed in to GiftGenius at ${state.site}. Tool calls need your permission: sign in first.`;
  signInForm.hidden = state.signedIn;
  signOutForm.hidden = !state.signedIn;
  toolSelect.replaceChildren(...state.tools.map((tool) => new Option(tool.title ?? tool.name, tool.name)));
  exampleSelect.replaceChildren(...READY_EXAMPLES.map((example, index) => new Option(example.label, String(index))));
  showExample(0);
}

/** Shows the view of a model's call: the frame, then the call's arguments and result, as a host sends them. */
async function showView(answer: Extract<CallAnswer, { result: unknown }>, args: Record<string, unknown>): Promise<void> {
  if (answer.view === undefined) return;
  const entry = say('from-site', `${answer.tool.title ?? answer.tool.name}, in GiftGenius's widget:`);
  const bridge = await openViewFrame(
    entry,
    'GiftGenius widget',
    {
      widgetUrl: answer.view.url,
      tool: answer.tool,
      csp: answer.view.csp,
      hostContext: {
        theme: 'light',
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    },
    {
      async callTool(name, callArgs) {
        say('from-widget', `The widget called ${name}.`);
        const called = await postCall('/api/app-call', name, callArgs);
        if ('error' in called) {
          say('from-widget', called.error);
          throw new Error(called.error);
        }
        return called.result;
      },
      async openLink(url) {
        const { protocol } = new URL(url);
        if (protocol !== 'https:' && protocol !== 'http:') throw new Error('The host opens web addresses only.');
        say('from-widget', `The widget opened ${url} in a new tab.`);
        window.open(url, '_blank', 'noopener,noreferrer');
      },
      log: (params) => console.info('[widget]', params.level, params.data),
    },
  );
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(answer.result);
}

byId<HTMLFormElement>('model-call').addEventListener('submit', async (event) => {
  event.preventDefault();
  composeProblem.textContent = '';
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(argumentsField.value || '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    args = parsed as Record<string, unknown>;
  } catch {
    composeProblem.textContent = 'The arguments must be one JSON object, such as { "recipient": { "relationship": "friend" } }.';
    return;
  }
  const name = toolSelect.value;
  say('from-model', `The model called ${name} with:`, JSON.stringify(args, null, 2));
  const answer = await postCall('/api/model-call', name, args);
  if ('error' in answer) {
    say('from-site', answer.error);
    return;
  }
  say('from-site', 'GiftGenius answered the model:', textOfResult(answer.result));
  await showView(answer, args);
});
exampleSelect.addEventListener('change', () => showExample(Number(exampleSelect.value)));
toolSelect.addEventListener('change', () => showTool(toolSelect.value));
await loadHostState();
