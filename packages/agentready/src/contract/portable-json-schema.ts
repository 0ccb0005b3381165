/**
 * @module A zod schema as the JSON Schema a tool publishes (MCP `inputSchema`
 * and `outputSchema`, WebMCP `inputSchema`), spelled so that clients which map
 * tool schemas onto a narrower dialect (the OpenAPI subset of Gemini function
 * declarations, for one) accept it: every `type` is a single string.
 */
import { z } from 'zod';

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
export type JsonSchemaNode = { [keyword: string]: unknown };

/**
 * Converts a zod schema to JSON Schema 2020-12 and rewrites every `type` array
 * into `anyOf` branches of one `type` each, however deep.
 *
 * zod 4 folds `anyOf: [{type: "string"}, {type: "null"}]` (a `.nullable()`
 * string) into `type: ["string", "null"]`. Both accept the same values, but a
 * `type` array is what the MCP Inspector's `--strict` portability check warns
 * about (rule `type-union`); the `anyOf` spelling is the one it recommends.
 * A node that already has `anyOf` gets the type choice as one more `allOf`
 * member, so neither constraint is lost.
 *
 * @param schema any zod schema.
 * @param io `input`: what a client may send (defaults optional); `output`: what a result holds.
 * @returns a fresh JSON Schema object (with `$schema`), safe to modify.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation#name-type
 * @example portableJsonSchema(z.object({ name: z.string().nullable() }), 'output').properties.name
 * // { anyOf: [{ type: 'string' }, { type: 'null' }] }
 */
export function portableJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaNode {
  const converted = z.toJSONSchema(schema, { io }) as JsonSchemaNode;
  forEachSchemaNode(converted, splitTypeArray);
  return converted;
}

function splitTypeArray(node: JsonSchemaNode): void {
  const { type } = node;
  if (!Array.isArray(type)) return;
  delete node['type'];
  const branches = type.map((member) => ({ type: member }));
  if (node['anyOf'] === undefined) {
    node['anyOf'] = branches;
  } else {
    node['allOf'] = [...(Array.isArray(node['allOf']) ? node['allOf'] : []), { anyOf: branches }];
  }
}

// JSON Schema 2020-12 keywords whose value is a subschema, an array of them, or a map of them
// (Core, sections 10.2 and 10.3; Validation, section 8.2.4.3). Written out here because
// json-schema-traverse 1.0 predates 2020-12 and skips prefixItems and dependentSchemas.
const SUBSCHEMA_KEYWORDS = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SUBSCHEMA_LIST_KEYWORDS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];

/** Calls `visit` on `node` and on every subschema in it, parents first (a visit may add children, which are walked too). */
function forEachSchemaNode(node: unknown, visit: (node: JsonSchemaNode) => void): void {
  if (!isSchemaNode(node)) return;
  visit(node);
  for (const keyword of SUBSCHEMA_KEYWORDS) forEachSchemaNode(node[keyword], visit);
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const child of list) forEachSchemaNode(child, visit);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (isSchemaNode(map)) for (const child of Object.values(map)) forEachSchemaNode(child, visit);
  }
}

function isSchemaNode(value: unknown): value is JsonSchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
