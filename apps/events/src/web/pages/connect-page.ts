/**
 * @module
 * `/connect`: the person's personal access tokens for MCP clients (Claude
 * Desktop, an IDE agent). Create one by name; it is shown once, with Copy and
 * in two ready-to-paste client configurations; list, and revoke after a
 * confirmation. The token lives only in this render: leaving or reloading the
 * page forgets it, as the server does.
 */
import { ACCESS_TOKEN_LABEL_MAX_LENGTH } from '../../domain/access-token-label.ts';
import type { AccessToken, ConnectInfo } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { formatDateTime } from '../event-format.ts';
import type { PageContext } from '../page-context.ts';
import type { NoControls } from '../page-controls.ts';

/** The server's name in both client configurations. */
const MCP_SERVER_NAME = 'agentready-events';

/** Stands in for the token in the examples until one is created here. */
const TOKEN_PLACEHOLDER = '<your token>';

/** How a checkout starts the stdio server, when the site was not told where it is. */
const PLACEHOLDER_STDIO = { command: 'node', args: ['/path/to/agentready/apps/events/bin/agentready-events.mjs', 'mcp'] };

/** The token created during this render, with its public ID (to forget it when it is revoked). */
type CreatedToken = { id: string; label: string; token: string };

/**
 * Renders the page and loads the token list and the connection facts. After
 * creating or revoking, the list is loaded again, so it shows what the server holds.
 */
export function renderConnectPage(context: PageContext): NoControls {
  const { api, root, signal } = context;
  const origin = root.ownerDocument.location.origin;
  context.setTitle('Connect an agent');
  let created: CreatedToken | null = null;
  let connectInfo: ConnectInfo | null = null;
  let pendingRevoke: AccessToken | null = null;

  // Create
  const labelInput = el('input', {
    testId: 'token-label',
    attrs: {
      id: 'token-label',
      name: 'label',
      type: 'text',
      required: true,
      autocomplete: 'off',
      placeholder: 'e.g. Claude Desktop',
      'aria-describedby': 'token-label-hint',
    },
  });
  const createButton = el('button', { className: 'button button-primary', testId: 'create-token', attrs: { type: 'submit' } }, ['Create token']);
  const createError = el('p', { className: 'message message-error', testId: 'create-token-error', attrs: { id: 'create-token-error', role: 'alert', hidden: true } });
  const form = el('form', { className: 'token-form', testId: 'token-form' }, [
    el('div', { className: 'field' }, [
      el('label', { attrs: { for: 'token-label' } }, ['Name']),
      labelInput,
      el('p', { className: 'field-hint', attrs: { id: 'token-label-hint' } }, [`Where you will use it, up to ${ACCESS_TOKEN_LABEL_MAX_LENGTH} characters.`]),
    ]),
    el('div', { className: 'form-actions' }, [createButton]),
  ]);

  const newTokenHeading = el('h3', { attrs: { id: 'new-token-heading', tabindex: '-1' } });
  const newTokenValue = el('input', {
    className: 'token-value',
    testId: 'new-token-value',
    attrs: { id: 'new-token-value', type: 'text', readonly: true, spellcheck: 'false', autocomplete: 'off' },
  });
  const newTokenPanel = el('section', { className: 'new-token', testId: 'new-token', attrs: { 'aria-labelledby': 'new-token-heading', hidden: true } }, [
    newTokenHeading,
    el('p', { className: 'message message-warning', testId: 'new-token-warning' }, [
      'Copy this token now: it will not be shown again. Anyone who has it can act as you on this site until you revoke it.',
    ]),
    el('div', { className: 'field' }, [el('label', { attrs: { for: 'new-token-value' } }, ['Token']), newTokenValue]),
    copyControl('copy-token', 'Copy token', () => newTokenValue.value, () => newTokenValue.select()),
  ]);

  // List
  const list = el('ul', { className: 'token-list', testId: 'token-list', attrs: { 'aria-busy': 'true' } });
  const empty = el('p', { className: 'empty', testId: 'tokens-empty', attrs: { hidden: true } }, ['You have no access tokens.']);
  const listError = el('p', { className: 'message message-error', testId: 'tokens-error', attrs: { role: 'alert', hidden: true } });
  const revokeSuccess = el('p', { className: 'message message-success', testId: 'revoke-success', attrs: { role: 'status', hidden: true } });
  const revokeError = el('p', { className: 'message message-error', testId: 'revoke-error', attrs: { role: 'alert', hidden: true } });

  const dialogText = el('p', { testId: 'revoke-dialog-text' });
  const keepButton = el('button', { className: 'button', testId: 'dialog-keep-token', attrs: { type: 'button' } }, ['Keep token']);
  const confirmRevokeButton = el('button', { className: 'button button-danger', testId: 'dialog-confirm-revoke', attrs: { type: 'button' } }, ['Revoke token']);
  const dialog = el('dialog', { className: 'confirm-dialog', testId: 'revoke-dialog', attrs: { 'aria-labelledby': 'revoke-dialog-title' } }, [
    el('h2', { attrs: { id: 'revoke-dialog-title' } }, ['Revoke this token?']),
    dialogText,
    el('p', {}, ['Agents using it lose access at once. This cannot be undone; you can create a new token.']),
    el('div', { className: 'form-actions' }, [keepButton, confirmRevokeButton]),
  ]);

  // How to connect
  const httpUrl = el('code', { testId: 'http-url' });
  const httpHeader = el('code', { testId: 'http-header' });
  const httpConfig = el('code', { testId: 'http-config' });
  const stdioConfig = el('code', { testId: 'stdio-config' });
  const stdioPathNote = el('p', { className: 'card-note', testId: 'stdio-path-note', attrs: { hidden: true } }, [
    'Replace /path/to/agentready with the folder where AgentReady is checked out.',
  ]);
  const placeholderNote = el('p', { className: 'card-note', testId: 'config-placeholder-note' }, [
    `Create a token above and the examples will include it; until then they show ${TOKEN_PLACEHOLDER}.`,
  ]);

  root.append(
    el('h1', {}, ['Connect an agent']),
    el('p', { className: 'lead', testId: 'connect-abilities' }, [
      'A personal access token lets an MCP client, such as Claude Desktop or an IDE agent, read events, save events, and prepare registrations and cancellations as the person using this browser; it cannot register or cancel, because you confirm those yourself on this site.',
    ]),
    el('section', { className: 'connect-section', attrs: { 'aria-labelledby': 'create-token-heading' } }, [
      el('h2', { attrs: { id: 'create-token-heading' } }, ['Create a token']),
      form,
      createError,
      newTokenPanel,
    ]),
    el('section', { className: 'connect-section', attrs: { 'aria-labelledby': 'tokens-heading' } }, [
      el('h2', { attrs: { id: 'tokens-heading' } }, ['Your tokens']),
      revokeSuccess,
      revokeError,
      listError,
      list,
      empty,
    ]),
    el('section', { className: 'connect-section', attrs: { 'aria-labelledby': 'how-heading' } }, [
      el('h2', { attrs: { id: 'how-heading' } }, ['How to connect']),
      placeholderNote,
      el('h3', {}, ['Streamable HTTP']),
      el('p', {}, ['For clients that connect to a URL. Endpoint: ', httpUrl, ', with the header ', httpHeader, '.']),
      el('pre', { className: 'config' }, [httpConfig]),
      copyControl('copy-http-config', 'Copy HTTP configuration', () => httpConfig.textContent ?? ''),
      el('h3', {}, ['Desktop client over stdio']),
      el('p', {}, [
        'For clients that start a local server, such as Claude Desktop (its claude_desktop_config.json). It runs the AgentReady checkout with Node.js and reaches this site at SITE_URL.',
      ]),
      el('pre', { className: 'config' }, [stdioConfig]),
      stdioPathNote,
      copyControl('copy-stdio-config', 'Copy stdio configuration', () => stdioConfig.textContent ?? ''),
    ]),
    dialog,
  );

  function showExamples(): void {
    const token = created?.token ?? TOKEN_PLACEHOLDER;
    const mcpUrl = connectInfo?.mcpUrl ?? `${origin}/mcp`;
    httpUrl.textContent = mcpUrl;
    httpHeader.textContent = `Authorization: Bearer ${token}`;
    httpConfig.textContent = JSON.stringify(
      { mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } },
      null,
      2,
    );
    const launch: NonNullable<ConnectInfo['stdio']> = connectInfo?.stdio ?? PLACEHOLDER_STDIO;
    stdioConfig.textContent = JSON.stringify(
      { mcpServers: { [MCP_SERVER_NAME]: { command: launch.command, args: launch.args, env: { AGENTREADY_EVENTS_TOKEN: token, SITE_URL: origin, ...launch.env } } } },
      null,
      2,
    );
    stdioPathNote.hidden = connectInfo?.stdio != null;
    placeholderNote.hidden = created !== null;
  }

  function showCreated(token: CreatedToken | null): void {
    created = token;
    newTokenPanel.hidden = token === null;
    newTokenValue.value = token?.token ?? '';
    newTokenHeading.textContent = token === null ? '' : `Your new token “${token.label}”`;
    showExamples();
  }

  function showCreateError(message: string, field: string | undefined): void {
    createError.textContent = message;
    createError.hidden = false;
    if (field === 'label') {
      labelInput.setAttribute('aria-invalid', 'true');
      labelInput.setAttribute('aria-describedby', 'token-label-hint create-token-error');
      labelInput.focus();
    }
  }

  function clearCreateError(): void {
    createError.hidden = true;
    labelInput.removeAttribute('aria-invalid');
    labelInput.setAttribute('aria-describedby', 'token-label-hint');
  }

  form.addEventListener('submit', async function createToken(event) {
    event.preventDefault();
    clearCreateError();
    createButton.disabled = true;
    const answer = await api.createAccessToken(labelInput.value);
    createButton.disabled = false;
    if (signal.aborted) return;
    if (!answer.ok) {
      showCreateError(answer.error.message, answer.error.field);
      return;
    }
    const { token, accessToken } = answer.data;
    labelInput.value = '';
    revokeSuccess.hidden = true;
    showCreated({ id: accessToken.id, label: accessToken.label, token });
    newTokenHeading.focus();
    await load();
  });

  keepButton.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', function forgetPendingRevoke() {
    // `close` fires later, as a task: by then the dialog may be open again for another token.
    if (!dialog.open) pendingRevoke = null;
  });

  confirmRevokeButton.addEventListener('click', async function revokeToken() {
    const target = pendingRevoke;
    if (target === null) return;
    keepButton.disabled = true;
    confirmRevokeButton.disabled = true;
    const answer = await api.revokeAccessToken(target.id);
    keepButton.disabled = false;
    confirmRevokeButton.disabled = false;
    if (signal.aborted) return;
    dialog.close();
    if (answer.ok) {
      revokeError.hidden = true;
      revokeSuccess.textContent = `The token “${target.label}” was revoked. Agents using it can no longer act as you.`;
      revokeSuccess.hidden = false;
      // A revoked token must not stay on screen as if it still worked.
      if (created?.id === target.id) showCreated(null);
    } else {
      revokeSuccess.hidden = true;
      revokeError.textContent = answer.error.message;
      revokeError.hidden = false;
    }
    await load();
  });

  function openRevokeDialog(token: AccessToken): void {
    if (dialog.open || signal.aborted) return;
    pendingRevoke = token;
    dialogText.replaceChildren('You are about to revoke ', el('strong', {}, [token.label]), '.');
    dialog.showModal();
    keepButton.focus();
  }

  function tokenItem(token: AccessToken): HTMLLIElement {
    const item = el('li', { className: 'event-card token-card', testId: 'token-item' }, [
      el('h3', { className: 'card-title', testId: 'token-label-text' }, [token.label]),
      el('p', { className: 'card-note' }, ['Created ', el('time', { attrs: { datetime: token.createdAt } }, [formatDateTime(token.createdAt)])]),
      el('p', { className: 'card-note', testId: 'token-expires' }, ['Works until ', el('time', { attrs: { datetime: token.expiresAt } }, [formatDateTime(token.expiresAt)])]),
      el('p', { className: 'card-note', testId: 'token-last-used' }, token.lastUsedAt === null
        ? ['Not used yet']
        : ['Last used ', el('time', { attrs: { datetime: token.lastUsedAt } }, [formatDateTime(token.lastUsedAt)])]),
      el('div', { className: 'card-actions' }, [
        el('button', {
          className: 'button button-small',
          testId: 'revoke-button',
          attrs: { type: 'button', 'aria-label': `Revoke ${token.label}` },
          on: { click: () => openRevokeDialog(token) },
        }, ['Revoke…']),
      ]),
    ]);
    item.dataset['tokenId'] = token.id;
    return item;
  }

  async function load(): Promise<void> {
    list.setAttribute('aria-busy', 'true');
    try {
      const answer = await api.listAccessTokens(signal);
      if (signal.aborted) return;
      list.removeAttribute('aria-busy');
      if (!answer.ok) {
        listError.textContent = answer.error.message;
        listError.hidden = false;
        return;
      }
      listError.hidden = true;
      list.replaceChildren(...answer.data.accessTokens.map(tokenItem));
      empty.hidden = answer.data.accessTokens.length > 0;
    } catch {
      // Aborted: the route was left.
    }
  }

  async function loadConnectInfo(): Promise<void> {
    try {
      const answer = await api.getConnectInfo(signal);
      if (signal.aborted || !answer.ok) return;
      connectInfo = answer.data;
      showExamples();
    } catch {
      // Aborted: the route was left.
    }
  }

  showExamples();
  void load();
  void loadConnectInfo();
  return {};
}

/**
 * A Copy button with its status line. Copies through the Clipboard API; where
 * the browser refuses, `selectFallback` (when given) selects the text so the
 * person can copy it themselves.
 */
function copyControl(testId: string, label: string, read: () => string, selectFallback?: () => void): HTMLDivElement {
  const status = el('span', { className: 'copy-status', testId: `${testId}-status`, attrs: { role: 'status' } });
  const button = el('button', { className: 'button button-small', testId, attrs: { type: 'button' } }, [label]);
  button.addEventListener('click', async function copyToClipboard() {
    try {
      await navigator.clipboard.writeText(read());
      status.textContent = 'Copied.';
    } catch {
      selectFallback?.();
      status.textContent = 'This browser did not allow copying. Select the text and copy it yourself.';
    }
  });
  return el('div', { className: 'form-actions copy-actions' }, [button, status]);
}
