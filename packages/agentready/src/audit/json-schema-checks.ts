/**
 * @module A tool's JSON Schemas as the audit judges them: does it compile as
 * JSON Schema 2020-12 (MCP's default dialect), is every object strict
 * (`additionalProperties: false`), is every `type` a single string, and does a
 * value conform. Compiling and validating is ajv's.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { loadAjv2020 } from './optional-packages.ts';

/** A JSON Schema node. */
type SchemaNode = { [keyword: string]: unknown };

/** Keywords whose value is one subschema. */
const ONE_SUBSCHEMA = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is an array of subschemas. */
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value is a map of subschemas. */
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** What the audit found in one schema. */
export type SchemaFindings = {
  /** ajv's message when it does not compile as 2020-12. */
  compileError?: string;
  /** Paths (`/properties/filters`) of object nodes without `additionalProperties: false`. */
  openObjects: string[];
  /** Paths of nodes whose `type` is an array. */
  typeArrays: string[];
};

/** Checks JSON Schemas and validates values, with one ajv instance per audit. */
export type SchemaJudge = {
  /** Compiles `schema` (its `$schema` set aside: the body is judged as 2020-12) and walks it. */
  inspect(schema: unknown): SchemaFindings;
  /** Validates `value` against `schema`: undefined when it conforms, else ajv's errors as one line; undefined too when the schema does not compile. */
  problemsOf(schema: unknown, value: unknown): string | undefined;
};

/**
 * Creates a {@link SchemaJudge}. Formats are not checked (ajv knows none
 * without ajv-formats, and an unknown `format` is an annotation in 2020-12).
 *
 * @throws MissingAuditPackageError when ajv is not installed.
 */
export async function createSchemaJudge(): Promise<SchemaJudge> {
  const { Ajv2020: Ajv } = await loadAjv2020();
  const ajv: Ajv2020 = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<unknown, ReturnType<Ajv2020['compile']> | string>();
  function compile(schema: unknown): ReturnType<Ajv2020['compile']> | string {
    const known = compiled.get(schema);
    if (known !== undefined) return known;
    let result: ReturnType<Ajv2020['compile']> | string;
    try {
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('the schema is not a JSON object');
      const { $schema: _dialect, ...body } = schema as SchemaNode;
      result = ajv.compile(body);
    } catch (error) {
      result = (error as Error).message;
    }
    compiled.set(schema, result);
    return result;
  }
  return {
    inspect(schema) {
      const validate = compile(schema);
      const found: SchemaFindings = { openObjects: [], typeArrays: [] };
      if (typeof validate === 'string') found.compileError = validate;
      if (typeof schema === 'object' && schema !== null) walk(schema as SchemaNode, '', found);
      return found;
    },
    problemsOf(schema, value) {
      const validate = compile(schema);
      if (typeof validate === 'string' || validate(value)) return undefined;
      return ajv.errorsText(validate.errors, { dataVar: 'structuredContent' });
    },
  };
}

function walk(node: SchemaNode, path: string, found: SchemaFindings): void {
  if (Array.isArray(node['type'])) found.typeArrays.push(path || '/');
  const isObject = node['type'] === 'object' || (node['type'] === undefined && typeof node['properties'] === 'object');
  if (isObject && node['additionalProperties'] !== false && node['unevaluatedProperties'] !== false) found.openObjects.push(path || '/');
  for (const keyword of ONE_SUBSCHEMA) {
    const child = node[keyword];
    if (isNode(child)) walk(child, `${path}/${keyword}`, found);
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const children = node[keyword];
    if (!Array.isArray(children)) continue;
    children.forEach((child, index) => {
      if (isNode(child)) walk(child, `${path}/${keyword}/${index}`, found);
    });
  }
  for (const keyword of SUBSCHEMA_MAPS) {
    const children = node[keyword];
    if (isNode(children)) for (const [name, child] of Object.entries(children)) if (isNode(child)) walk(child, `${path}/${keyword}/${name}`, found);
  }
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
