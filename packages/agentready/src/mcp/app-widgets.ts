/**
 * @module A catalog's widgets on MCP: the MCP Apps extension (spec
 * 2026-01-26, `io.modelcontextprotocol/ui`) and the ChatGPT Apps metadata.
 *
 * - UI resources (`ui://…`, `text/html;profile=mcp-app` by default) are
 *   served by `resources/list` and `resources/read`, with their `_meta`
 *   (`ui.csp`, `ui.prefersBorder`, `openai/widgetCSP`…).
 * - A tool names the resource that renders its results and who may call it
 *   (`_meta.ui = { resourceUri, visibility }`, plus the deprecated
 *   `_meta["ui/resourceUri"]` older hosts read), with any ChatGPT keys
 *   (`openai/outputTemplate`, `openai/widgetAccessible`).
 * - A tool may keep some of its result for the widget only: moved out of
 *   `structuredContent` and the text, which the model reads, into the
 *   result's `_meta`, which the host gives the widget and not the model
 *   (ChatGPT Apps, "Tool results": `_meta` is "passed only to the
 *   component"; MCP Apps, "Data Passing": the view gets the whole
 *   `CallToolResult`, and `_meta` is "not intended for model context").
 *
 * Resources and tool metadata go through ext-apps' own server helpers
 * (`registerAppResource`, `registerAppTool`) on a recorder, in
 * `agentready/mcp-apps` (`appWidgets`), so their defaults and normalization
 * are ext-apps' and only a site with widgets loads ext-apps; this module
 * checks the recorded widgets against a catalog and serves them on the
 * low-level `Server`.
 *
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 * @see https://developers.openai.com/apps-sdk/reference
 */
import {
  ResourceNotFoundError,
  type ReadResourceResult,
  type Resource,
  type ResourceMetadata,
  type Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { Catalog } from '../contract/catalog.ts';
import { fail, type ToolResult } from '../contract/envelope.ts';
import { refuseWidgetsOfUnknownTools } from './configuration-checks.ts';
import type { JsonSchemaObject } from './tool-listing.ts';

/** Who may call a widget's tool (MCP Apps 2026-01-26, "Visibility"): the host's model, the widget (`app`). */
export type McpAppToolVisibility = 'model' | 'app';

/**
 * A UI resource's `_meta.ui` (MCP Apps 2026-01-26, "UI Resource Format"):
 * the origins its Content-Security-Policy allows, the browser permissions
 * it asks for, a dedicated domain, and whether the host should draw a border.
 */
export type McpAppResourceUi = {
  csp?: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
  permissions?: Record<string, unknown>;
  domain?: string;
  prefersBorder?: boolean;
  [key: string]: unknown;
};

/** One widget's HTML as an MCP Apps UI resource (spec 2026-01-26, "UI Resource Format"). */
export type McpAppResource = {
  /** The resource's URI; MUST use the `ui://` scheme (`ui://giftgenius/gift-finder-v1.html`). */
  uri: string;
  /** Its name, as hosts list it. */
  name: string;
  title?: string;
  description?: string;
  /** Default: ext-apps' `RESOURCE_MIME_TYPE`, `text/html;profile=mcp-app`; ChatGPT's copy says `text/html+skybridge`. */
  mimeType?: string;
  /**
   * The resource's `_meta`, in `resources/list` and on the content of
   * `resources/read`: `ui` (`csp`, `permissions`, `domain`, `prefersBorder`)
   * and any host's own keys (`openai/widgetCSP`, `openai/widgetDescription`…).
   */
  meta?: { ui?: McpAppResourceUi; [key: string]: unknown };
  /** The HTML document, read at each `resources/read`; a throw answers the read with an internal error. */
  html: () => string | Promise<string>;
};

/** What a tool of an app with widgets is split into: what the model may read, and what only the widget gets. */
export type McpAppWidgetOnlySplit = {
  /** The envelope without the widget's fields: `structuredContent`, and the source of the text content. */
  envelope: ToolResult<unknown>;
  /** Merged into the result's `_meta`, which the host hands the widget, not the model. */
  meta: Record<string, unknown>;
};

/** A tool's part in the widgets: its `_meta.ui`, any other tool `_meta`, and what of its result only the widget gets. */
export type McpAppToolUi = {
  /** The `ui://` resource that renders this tool's results; one of the widgets' `resources`. */
  resourceUri?: string;
  /**
   * Who may call the tool: `model` (the host offers it to the model), `app`
   * (the widget may call it). Default (absent): both. `['app']` hides it from
   * the model (spec, "Visibility"); the host enforces that, not this server.
   */
  visibility?: McpAppToolVisibility[];
  /**
   * More of the tool's `_meta` in `tools/list`, such as
   * `openai/outputTemplate` (a resource URI of these widgets),
   * `openai/widgetAccessible`, `openai/toolInvocation/invoking`. Not `ui`:
   * that is `resourceUri` and `visibility`.
   */
  meta?: Record<string, unknown>;
  /**
   * Splits each result (success or failure) of the tool: the envelope it
   * returns, a copy without the widget's fields, becomes `structuredContent`
   * and the text; its `meta` joins the result's `_meta`. Each field it removes
   * must be optional in the contract's output schema, since the listed
   * `outputSchema` is the contract's: an envelope that schema refuses, or a
   * throw, is answered INTERNAL_ERROR (a fault of the site's own code: the same
   * call meets it again, so it is not retryable) with the reason on `onError`,
   * so nothing unchecked reaches the model and no widget field does either.
   */
  widgetOnly?: (envelope: ToolResult<unknown>) => McpAppWidgetOnlySplit;
};

/** The widgets of an MCP server (`McpToolServerOptions.widgets`). */
export type McpAppWidgets<Name extends string = string> = {
  /** The UI resources, listed and read in this order. */
  resources: McpAppResource[];
  /** Per tool name of the catalog, its widget settings; tools without an entry are listed as they are. */
  tools?: Partial<Record<Name, McpAppToolUi>>;
};

/** A resource as ext-apps' `registerAppResource` recorded it: its listing and how it is read. */
export type RecordedAppResource = {
  name: string;
  uri: string;
  config: ResourceMetadata;
  read: (uri: URL, ctx: ServerContext) => ReadResourceResult | Promise<ReadResourceResult>;
};

/**
 * Widgets as `appWidgets` (`agentready/mcp-apps`) prepared them with
 * ext-apps' helpers: the resources to serve and, per tool name, its `_meta`
 * and the split of its results. What `McpToolServerOptions.widgets` takes.
 */
export type PreparedAppWidgets = {
  readonly resources: ReadonlyMap<string, RecordedAppResource>;
  readonly tools: ReadonlyMap<string, { meta: Record<string, unknown>; widgetOnly?: McpAppToolUi['widgetOnly'] }>;
};

/** A catalog's widgets ready to serve: checked once, then shared by every server made for them. */
export type ServedAppWidgets = {
  /** The `tools/list` entries: the catalog's listing, each tool with a widget entry carrying its `_meta` (derived on the first call, then kept). */
  listing(): Tool[];
  /** Registers `resources/list`, `resources/read` and `resources/templates/list` on a server that declared `resources`. */
  serveResources(server: Server): void;
  /**
   * The split of a tool's envelope for a tool with `widgetOnly`, checked
   * against its listed `outputSchema`; undefined for any other tool.
   */
  widgetOnlySplit(tool: string, envelope: ToolResult<unknown>): McpAppWidgetOnlySplit | undefined;
};

/**
 * Checks a catalog's widgets and prepares what serves them.
 *
 * @param listingOf the catalog's listing: its `tools/list` entries, in catalog order, and each
 *   tool's listed `outputSchema`, which a `widgetOnly` envelope must pass. Called when a listing
 *   or a split is first needed, not here (converting the schemas is the costly part of a start).
 * @param onError hears each `widgetOnly` that threw or answered an envelope its schema refuses.
 * @throws Error (at start-up) for a tool entry naming no tool of the catalog (the widgets'
 *   own rules are checked when `appWidgets` prepares them).
 */
export function serveAppWidgets(
  catalog: Catalog,
  widgets: PreparedAppWidgets,
  listingOf: () => { listing: readonly Tool[]; outputSchemas: ReadonlyMap<string, JsonSchemaObject> },
  onError?: (error: Error) => void,
): ServedAppWidgets {
  refuseWidgetsOfUnknownTools(catalog, widgets.tools.keys());
  let listing: Tool[] | undefined;
  let splits: Map<string, { widgetOnly: NonNullable<McpAppToolUi['widgetOnly']>; check: ReturnType<AjvJsonSchemaValidator['getValidator']> }> | undefined;
  const splitsOf = () => {
    if (splits) return splits;
    const { outputSchemas } = listingOf();
    const validator = new AjvJsonSchemaValidator();
    splits = new Map(
      [...widgets.tools].flatMap(([name, { widgetOnly }]) =>
        widgetOnly ? [[name, { widgetOnly, check: validator.getValidator(outputSchemas.get(name)!) }] as const] : [],
      ),
    );
    return splits;
  };
  return {
    listing() {
      listing ??= listingOf().listing.map((tool) => {
        const entry = widgets.tools.get(tool.name);
        return entry === undefined ? tool : { ...tool, _meta: { ...tool._meta, ...entry.meta } };
      });
      return listing;
    },
    serveResources: (server) => serveRecordedResources(server, widgets.resources),
    widgetOnlySplit(tool, envelope) {
      if (!widgets.tools.get(tool)?.widgetOnly) return undefined;
      const split = splitsOf().get(tool);
      if (!split) return undefined;
      try {
        const answer = split.widgetOnly(envelope);
        const checked = split.check(answer.envelope);
        if (checked.valid) return answer;
        throw new Error(`its envelope does not match the listed outputSchema (${checked.errorMessage})`);
      } catch (error) {
        onError?.(new Error(`widgetOnly of tool "${tool}" failed: ${error instanceof Error ? error.message : String(error)}`));
        const failure = fail(
          {
            code: 'INTERNAL_ERROR',
            // The call itself ran: what it did, if anything, stands; only its answer could not be made.
            message: 'The site could not put together its answer to this call.',
            nextAction:
              "Do not repeat this call: its answer fails the same way until the site is fixed. Tell the person the site failed; its operators can find this failure by the call's trace id.",
          },
          envelope.stateVersion,
        );
        return { envelope: failure, meta: {} };
      }
    },
  };
}

/**
 * The tools a host may offer to its model: those whose `_meta.ui.visibility`
 * is absent (default `["model", "app"]`) or contains `"model"` (MCP Apps
 * 2026-01-26, "Visibility": a host "MUST NOT include tools in the agent's
 * tool list when their visibility does not include `model`").
 *
 * Written from that rule rather than on ext-apps' `isToolVisibilityAppOnly`
 * (`@modelcontextprotocol/ext-apps/app-bridge`), which is true only for
 * exactly `["app"]`, so it would offer a tool with `visibility: []`; and that
 * module loads the MCP client SDK, which a server need not have.
 *
 * @param tools `tools/list` entries as listed; the order is kept.
 */
export function toolsForModel(tools: Tool[]): Tool[] {
  return tools.filter((tool) => visibilityAllows(tool, 'model'));
}

/**
 * The tools a widget (an MCP Apps view) may call through its host: those
 * whose `_meta.ui.visibility` is absent or contains `"app"` (MCP Apps
 * 2026-01-26, "Visibility": a host "MUST reject `tools/call` requests from
 * apps for tools that don't include `app` in visibility").
 *
 * @param tools `tools/list` entries as listed; the order is kept.
 */
export function toolsForApp(tools: Tool[]): Tool[] {
  return tools.filter((tool) => visibilityAllows(tool, 'app'));
}

function visibilityAllows(tool: Tool, who: McpAppToolVisibility): boolean {
  const ui = tool._meta?.['ui'];
  const visibility = typeof ui === 'object' && ui !== null ? (ui as { visibility?: unknown }).visibility : undefined;
  return !Array.isArray(visibility) || visibility.includes(who);
}

function serveRecordedResources(server: Server, resources: ReadonlyMap<string, RecordedAppResource>): void {
  const listed: Resource[] = [...resources.values()].map(({ name, uri, config }) => ({ uri, name, ...config }));
  server.setRequestHandler('resources/list', function listResources() {
    return { resources: listed };
  });
  server.setRequestHandler('resources/templates/list', function listResourceTemplates() {
    return { resourceTemplates: [] };
  });
  server.setRequestHandler('resources/read', async function readResource(request, ctx): Promise<ReadResourceResult> {
    const { uri } = request.params;
    const resource = resources.get(uri);
    // The spec's resource-not-found error (-32602 with data `{ uri }` since MCP 2026-07-28; the SDK maps it).
    if (!resource) throw new ResourceNotFoundError(uri, `No widget resource has the URI ${uri}.`);
    return resource.read(new URL(uri), ctx);
  });
}
