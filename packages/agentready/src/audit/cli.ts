#!/usr/bin/env node
/**
 * @module `agentready audit <target>`: scores an MCP server or a WebMCP page
 * for safe agent use and prints the scorecard (or `--json`). Exit code 0: no
 * error found; 1: at least one error; 2: the arguments are wrong or the target
 * cannot be reached (one line on stderr says which). Arguments are parsed by
 * node:util's parseArgs.
 */
import { parseArgs } from 'node:util';
import { hasErrors } from './audit-report.ts';
import { runAudit, type AuditTarget } from './audit-target.ts';
import { UnreachableTargetError } from './mcp-target.ts';
import { MissingAuditPackageError } from './optional-packages.ts';
import { scorecardText } from './scorecard.ts';

const USAGE = `Usage:
  agentready audit <url> [options]              a Streamable HTTP MCP endpoint, or a web page (answers HTML) audited in Chromium
  agentready audit [options] -- <command> [args…]  a stdio MCP server, started as that command

Options:
  --header 'Name: value'   sent with every request to an HTTP target, a page's too (repeatable), e.g. --header 'Authorization: Bearer …'
  --json                   print one JSON document { target, tools, findings, score } instead of the scorecard
  --call-read-tools        also call tools annotated readOnlyHint, with arguments from their schema's examples or defaults
  --depth <n>              pages: same-origin link levels to follow (default 1)
  --chromium <path>        pages: the Chromium binary (default: env AGENTREADY_CHROMIUM, else /usr/bin/chromium)
  -h, --help               this text

The audit changes nothing: it lists tools and reads metadata, calls tools only
when they are annotated read-only (and only with --call-read-tools), and probes
with requests that have no effect (an unknown tool, invalid arguments to a
read-only tool, a batch of pings, a foreign Origin or Host on initialize).

Exit codes: 0 no error found (warnings allowed); 1 at least one error;
2 wrong arguments or the target cannot be reached. Rules: docs/audit.md.
`;

/** Exit code when the arguments are wrong or the target cannot be reached. */
const EXIT_UNUSABLE = 2;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`agentready: ${(error as Error).message} (agentready audit --help)\n`);
    return EXIT_UNUSABLE;
  }
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const showProgress = process.stderr.isTTY === true;
  const progress = (line: string) => {
    if (showProgress) process.stderr.write(`\r\x1b[K… ${line}`);
  };
  try {
    const report = await runAudit(parsed.target, { ...parsed.options, progress });
    if (showProgress) process.stderr.write('\r\x1b[K');
    process.stdout.write(parsed.json ? `${JSON.stringify(report, null, 2)}\n` : scorecardText(report));
    return hasErrors(report) ? 1 : 0;
  } catch (error) {
    if (showProgress) process.stderr.write('\r\x1b[K');
    if (error instanceof UnreachableTargetError || error instanceof MissingAuditPackageError) {
      process.stderr.write(`agentready: ${error.message.split('\n')[0]}\n`);
      return EXIT_UNUSABLE;
    }
    throw error;
  }
}

type CommandLine = { target: AuditTarget; json: boolean; options: { callReadTools: boolean; depth: number; chromiumPath?: string } };

/** Reads the command line. @throws Error with a one-line message when it is wrong. */
function parseCommandLine(argv: string[]): CommandLine | 'help' {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    tokens: true,
    options: {
      header: { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      'call-read-tools': { type: 'boolean', default: false },
      depth: { type: 'string', default: '1' },
      chromium: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const terminator = tokens.find((token) => token.kind === 'option-terminator');
  const before = positionals.slice(
    0,
    terminator === undefined ? positionals.length : tokens.filter((token) => token.kind === 'positional' && token.index < terminator.index).length,
  );
  const command = terminator === undefined ? [] : positionals.slice(before.length);
  const [verb, url, ...extra] = before;
  if (verb !== 'audit') throw new Error(verb === undefined ? 'say what to do: agentready audit <target>' : `unknown command “${verb}”; the command is audit`);
  if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(' ')}`);
  const depth = Number(values.depth);
  if (!Number.isInteger(depth) || depth < 0 || depth > 5) throw new Error('--depth must be a whole number from 0 to 5');
  const options = { callReadTools: values['call-read-tools'], depth, ...(values.chromium !== undefined && { chromiumPath: values.chromium }) };
  if (command.length > 0) {
    if (url !== undefined) throw new Error('give either a URL or a command after --, not both');
    return { target: { command: command[0]!, args: command.slice(1) }, json: values.json, options };
  }
  if (url === undefined) throw new Error('no target: give a URL, or a stdio server after --');
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new Error(`“${url}” is not a URL`);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') throw new Error(`“${url}” is not an http(s) URL`);
  return { target: { url: parsedUrl, headers: headersOf(values.header) }, json: values.json, options };
}

function headersOf(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`--header “${line}” is not “Name: value”`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

process.exitCode = await main(process.argv.slice(2));
