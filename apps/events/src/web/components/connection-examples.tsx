/**
 * @module
 * "How to connect" on /connect: the MCP endpoint and two ready-to-paste
 * client configurations (Streamable HTTP, and a desktop client starting the
 * stdio server), with the token just created in them, or a placeholder
 * where it goes.
 */
import type { ConnectInfo } from '../api-shapes.ts';

/** How a desktop client starts the stdio server (`ConnectInfo.stdio`). */
type StdioLaunch = NonNullable<ConnectInfo['stdio']>;
import { CopyButton } from './copy-button.tsx';

/** The server's name in both client configurations. */
const MCP_SERVER_NAME = 'agentready-events';

/** Stands in for the token in the examples until one is created on the page. */
const TOKEN_PLACEHOLDER = '<your token>';

/** How a checkout starts the stdio server, when the site was not told where it is. */
const PLACEHOLDER_STDIO: StdioLaunch = { command: 'node', args: ['/path/to/agentready/apps/events/bin/agentready-events.mjs', 'mcp'] };

/** Props of {@link ConnectionExamples}. */
export type ConnectionExamplesProps = {
  connectInfo: ConnectInfo;
  /** The token created on this visit, or null: the examples then show {@link TOKEN_PLACEHOLDER}. */
  token: string | null;
  /** Whether the page's script runs (the Copy buttons need it). */
  enhanced: boolean;
};

/**
 * The two configurations as JSON text. The stdio one reaches the site at the
 * MCP endpoint's origin (SITE_URL), with the launch's own environment after it.
 */
function connectionConfigs(connectInfo: ConnectInfo, token: string): { http: string; stdio: string } {
  const launch: StdioLaunch = connectInfo.stdio ?? PLACEHOLDER_STDIO;
  const siteUrl = new URL(connectInfo.mcpUrl).origin;
  const http = { mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: connectInfo.mcpUrl, headers: { Authorization: `Bearer ${token}` } } } };
  const stdio = {
    mcpServers: {
      [MCP_SERVER_NAME]: { command: launch.command, args: launch.args, env: { AGENTREADY_EVENTS_TOKEN: token, SITE_URL: siteUrl, ...launch.env } },
    },
  };
  return { http: JSON.stringify(http, null, 2), stdio: JSON.stringify(stdio, null, 2) };
}

/** The section, headed "How to connect". */
export function ConnectionExamples({ connectInfo, token, enhanced }: ConnectionExamplesProps) {
  const shownToken = token ?? TOKEN_PLACEHOLDER;
  const configs = connectionConfigs(connectInfo, shownToken);
  return (
    <section class="connect-section" aria-labelledby="how-heading">
      <h2 id="how-heading">How to connect</h2>
      {token === null && (
        <p class="card-note" data-testid="config-placeholder-note">
          {`Create a token above and the examples will include it; until then they show ${TOKEN_PLACEHOLDER}.`}
        </p>
      )}
      <h3>Streamable HTTP</h3>
      <p>
        For clients that connect to a URL. Endpoint: <code data-testid="http-url">{connectInfo.mcpUrl}</code>, with the header{' '}
        <code data-testid="http-header">{`Authorization: Bearer ${shownToken}`}</code>.
      </p>
      <pre class="config">
        <code data-testid="http-config">{configs.http}</code>
      </pre>
      <CopyButton testId="copy-http-config" label="Copy HTTP configuration" text={configs.http} enabled={enhanced} />
      <h3>Desktop client over stdio</h3>
      <p>
        For clients that start a local server, such as Claude Desktop (its claude_desktop_config.json). It runs the AgentReady checkout with Node.js and reaches
        this site at SITE_URL.
      </p>
      <pre class="config">
        <code data-testid="stdio-config">{configs.stdio}</code>
      </pre>
      {connectInfo.stdio === null && (
        <p class="card-note" data-testid="stdio-path-note">
          Replace /path/to/agentready with the folder where AgentReady is checked out.
        </p>
      )}
      <CopyButton testId="copy-stdio-config" label="Copy stdio configuration" text={configs.stdio} enabled={enhanced} />
    </section>
  );
}
