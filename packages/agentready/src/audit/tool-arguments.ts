/**
 * @module Arguments the audit sends, built from a tool's input schema only:
 * example arguments for a read-only call (`--call-read-tools`), and arguments
 * that break the schema for the invalid-input probe.
 */
import type { AuditedTool } from './audit-report.ts';

type SchemaNode = { [keyword: string]: unknown };

/**
 * Arguments for a call: the schema's first `examples` entry when it is an
 * object, else each required property's first example, `default`, `const` or
 * first `enum` value (optional properties are left out).
 *
 * @returns undefined when a required property has none of these (the tool is skipped).
 */
export function exampleArguments(tool: AuditedTool): Record<string, unknown> | undefined {
  const schema = asNode(tool.inputSchema) ?? {};
  const examples = schema['examples'];
  if (Array.isArray(examples) && asNode(examples[0]) !== undefined) return examples[0] as Record<string, unknown>;
  const properties = asNode(schema['properties']) ?? {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]).filter((key): key is string => typeof key === 'string') : [];
  const built: Record<string, unknown> = {};
  for (const key of required) {
    const value = sampleValue(asNode(properties[key]) ?? {});
    if (value === undefined) return undefined;
    built[key] = value;
  }
  return built;
}

function sampleValue(property: SchemaNode): unknown {
  if (Array.isArray(property['examples']) && property['examples'].length > 0) return property['examples'][0];
  if ('default' in property) return property['default'];
  if ('const' in property) return property['const'];
  if (Array.isArray(property['enum']) && property['enum'].length > 0) return property['enum'][0];
  return undefined;
}

/** Values of a JSON type that no schema of another type accepts. */
const WRONG_VALUE: Record<string, unknown> = {
  string: 404,
  number: 'not a number',
  integer: 'not a number',
  boolean: 'not a boolean',
  array: 'not an array',
  object: 'not an object',
};

/**
 * Arguments that break the input schema: `{}` when something is required;
 * else an undeclared property when the schema is strict; else a value of the
 * wrong type for a typed property.
 *
 * @returns undefined when the schema accepts anything (no invalid input exists).
 */
export function invalidArguments(tool: AuditedTool): Record<string, unknown> | undefined {
  const schema = asNode(tool.inputSchema);
  if (schema === undefined) return undefined;
  if (Array.isArray(schema['required']) && schema['required'].length > 0) return {};
  if (schema['additionalProperties'] === false) return { agentready_audit_undeclared: true };
  for (const [key, property] of Object.entries(asNode(schema['properties']) ?? {})) {
    const type = asNode(property)?.['type'];
    if (typeof type === 'string' && type in WRONG_VALUE) return { [key]: WRONG_VALUE[type] };
  }
  return undefined;
}

function asNode(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}
