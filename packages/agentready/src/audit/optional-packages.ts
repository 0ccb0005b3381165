/**
 * @module The audit's packages, loaded only when an audit runs: the MCP client,
 * ajv (JSON Schema 2020-12) and, for pages, playwright-core. They are optional
 * peer dependencies of `agentready`, so a site that never audits installs none.
 */

/** A package the audit needs is not installed; the message names the install command. */
export class MissingAuditPackageError extends Error {
  override readonly name = 'MissingAuditPackageError';
}

/** The audit's optional packages and what each is for. */
const PURPOSE = {
  '@modelcontextprotocol/client': 'to talk to MCP servers',
  '@modelcontextprotocol/client/stdio': 'to start stdio MCP servers',
  ajv: 'to compile and check JSON Schemas',
  'ajv/dist/2020.js': 'to compile and check JSON Schemas',
  'playwright-core': 'to audit web pages in Chromium',
} as const;

/** Imports the client SDK. @throws MissingAuditPackageError when it is not installed. */
export function loadMcpClient(): Promise<typeof import('@modelcontextprotocol/client')> {
  return loadOptional('@modelcontextprotocol/client', () => import('@modelcontextprotocol/client'));
}

/** Imports the client SDK's stdio transport. @throws MissingAuditPackageError when it is not installed. */
export function loadMcpStdio(): Promise<typeof import('@modelcontextprotocol/client/stdio')> {
  return loadOptional('@modelcontextprotocol/client/stdio', () => import('@modelcontextprotocol/client/stdio'));
}

/** Imports ajv's JSON Schema 2020-12 validator. @throws MissingAuditPackageError when it is not installed. */
export function loadAjv2020(): Promise<typeof import('ajv/dist/2020.js')> {
  return loadOptional('ajv/dist/2020.js', () => import('ajv/dist/2020.js'));
}

/** Imports playwright-core. @throws MissingAuditPackageError when it is not installed. */
export function loadPlaywright(): Promise<typeof import('playwright-core')> {
  return loadOptional('playwright-core', () => import('playwright-core'));
}

async function loadOptional<T>(specifier: keyof typeof PURPOSE, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const installable = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
    throw new MissingAuditPackageError(
      `agentready audit needs ${installable} ${PURPOSE[specifier]}: npm install --save-dev ${installable} (an audit uses @modelcontextprotocol/client and ajv, and playwright-core for web pages; see docs/audit.md, "Install").`,
    );
  }
}
