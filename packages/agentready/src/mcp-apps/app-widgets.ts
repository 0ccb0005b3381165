/**
 * @module `appWidgets`: an app's widgets declared once (its `ui://`
 * resources and each tool's part), checked against the MCP Apps rules and
 * recorded through ext-apps' `registerAppResource` and `registerAppTool`, so
 * their defaults (the `text/html;profile=mcp-app` MIME type) and
 * normalization (the deprecated `ui/resourceUri` beside `ui.resourceUri`)
 * are ext-apps'. The MCP server (`McpToolServerOptions.widgets`) serves what
 * was recorded.
 *
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 */
import { registerAppResource, registerAppTool, RESOURCE_MIME_TYPE, type McpUiReadResourceCallback } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer, ResourceMetadata } from '@modelcontextprotocol/server';
import type { McpAppResource, McpAppToolUi, McpAppWidgets, PreparedAppWidgets, RecordedAppResource } from '../mcp/app-widgets.ts';

type Recorded = {
  resources: Map<string, RecordedAppResource>;
  tools: Map<string, { meta: Record<string, unknown>; widgetOnly?: McpAppToolUi['widgetOnly'] }>;
  /** Takes ext-apps' `registerResource` and `registerTool` calls: the helpers use only their arguments, and their return goes unused. */
  registrar: Pick<McpServer, 'registerResource' | 'registerTool'>;
};

/**
 * Prepares an app's widgets for `McpToolServerOptions.widgets`.
 *
 * @param widgets the `ui://` resources, listed and read in this order, and per tool name its
 *   `resourceUri`, `visibility`, other `_meta` and `widgetOnly` split.
 * @returns the recorded resources and tool `_meta`; the server checks at start that every tool
 *   entry names a tool of its catalog.
 * @throws Error (at start-up) for a resource URI that is not `ui://` or is given twice, a
 *   `resourceUri` or `openai/outputTemplate` naming no resource of the widgets, a `visibility`
 *   that is empty or repeats a value, or `ui`/`ui/resourceUri` in a tool's `meta`.
 * @example
 * const widgets = appWidgets({
 *   resources: [{ uri: 'ui://shop/cards-v1.html', name: 'cards', html: () => readFile('dist/cards.html', 'utf8') }],
 *   tools: { suggest_gifts: { resourceUri: 'ui://shop/cards-v1.html' } },
 * });
 */
export function appWidgets<Name extends string>(widgets: McpAppWidgets<Name>): PreparedAppWidgets {
  const recorded = recordedRegistrations();
  for (const resource of widgets.resources) registerResource(recorded, resource);
  const uris = new Set(recorded.resources.keys());
  const toolEntries = Object.entries(widgets.tools ?? {}).filter((entry): entry is [string, McpAppToolUi] => entry[1] !== undefined);
  for (const [name, toolUi] of toolEntries) registerTool(recorded, uris, name, toolUi);
  return { resources: recorded.resources, tools: recorded.tools };
}

function recordedRegistrations(): Recorded {
  const resources = new Map<string, RecordedAppResource>();
  const tools: Recorded['tools'] = new Map();
  const registrar = {
    registerResource(name: string, uri: string, config: ResourceMetadata, read: McpUiReadResourceCallback) {
      resources.set(uri, { name, uri, config, read });
    },
    registerTool(name: string, config: { _meta?: Record<string, unknown> }) {
      tools.set(name, { meta: config._meta ?? {} });
    },
  };
  return { resources, tools, registrar: registrar as unknown as Recorded['registrar'] };
}

function registerResource(recorded: Recorded, resource: McpAppResource): void {
  if (!resource.uri.startsWith('ui://')) throw new Error(`Widget resource "${resource.uri}" must use the ui:// scheme (MCP Apps, "UI Resource Format").`);
  if (recorded.resources.has(resource.uri)) throw new Error(`Widget resource "${resource.uri}" is given twice.`);
  const config = {
    ...(resource.title !== undefined && { title: resource.title }),
    ...(resource.description !== undefined && { description: resource.description }),
    // Left out when not given, so ext-apps' default (RESOURCE_MIME_TYPE) applies.
    ...(resource.mimeType !== undefined && { mimeType: resource.mimeType }),
    ...(resource.meta !== undefined && { _meta: resource.meta }),
  };
  registerAppResource(recorded.registrar, resource.name, resource.uri, config, async () => ({
    contents: [
      {
        uri: resource.uri,
        mimeType: resource.mimeType ?? RESOURCE_MIME_TYPE,
        text: await resource.html(),
        ...(resource.meta !== undefined && { _meta: resource.meta }),
      },
    ],
  }));
}

function registerTool(recorded: Recorded, uris: ReadonlySet<string>, name: string, toolUi: McpAppToolUi): void {
  const meta = toolUi.meta ?? {};
  if ('ui' in meta || 'ui/resourceUri' in meta) throw new Error(`Tool "${name}": give its resource and visibility as resourceUri and visibility, not in meta.`);
  for (const uri of [toolUi.resourceUri, meta['openai/outputTemplate']]) {
    if (uri !== undefined && !uris.has(uri as string))
      throw new Error(`Tool "${name}" names widget resource ${JSON.stringify(uri)}, which the widgets do not hold.`);
  }
  const { visibility } = toolUi;
  if (visibility !== undefined && (visibility.length === 0 || new Set(visibility).size !== visibility.length)) {
    throw new Error(`Tool "${name}": visibility must name "model", "app" or both, each once.`);
  }
  const ui = { ...(toolUi.resourceUri !== undefined && { resourceUri: toolUi.resourceUri }), ...(visibility !== undefined && { visibility }) };
  // registerAppTool adds the deprecated `ui/resourceUri` key beside `ui.resourceUri`, for older hosts.
  registerAppTool(recorded.registrar, name, { _meta: { ...meta, ...(Object.keys(ui).length > 0 && { ui }) } }, callsGoThroughThePipeline);
  const entry = recorded.tools.get(name)!;
  if (toolUi.widgetOnly) entry.widgetOnly = toolUi.widgetOnly;
}

function callsGoThroughThePipeline(): never {
  throw new Error('A widget tool is called through the invocation pipeline, never through a registered callback.');
}
