/**
 * @module `agentready-events <command>`: the Events site's command line.
 * `mcp` serves the Events tools over stdio for desktop MCP clients; `trace`
 * prints one tool call's journey from the audit evidence; `sweep` deletes what
 * has expired.
 */
import { parseArgs } from 'node:util';
import { runMcpOverStdio } from './mcp-stdio.ts';
import { runSweep } from './sweep-command.ts';
import { runTraceCommand, TRACE_USAGE } from './trace-command.ts';

const USAGE = `Usage: agentready-events mcp
       agentready-events sweep
       agentready-events trace <traceId> [--json]

  mcp    Serve the Events tools over stdio for a desktop MCP client (Claude Desktop, an IDE).
         Environment:
           AGENTREADY_EVENTS_TOKEN  an access token from the site's /connect page; without it
                                    only the reading tools work
           DATABASE_URL             the site's database (default: file:data/events.sqlite in the repository)
           SITE_URL                 where the person opens confirmation links (default: http://127.0.0.1:3000)

  sweep  Delete expired sessions, access tokens, confirmation tokens, drafts and idempotency records
         from DATABASE_URL's database (the running site does this every 10 minutes).

${TRACE_USAGE}`;

const [first, ...afterFirst] = process.argv.slice(2);
if (first === 'trace') {
  // `trace` has options of its own (--json): it reads its arguments itself.
  process.exitCode = await runTraceCommand(afterFirst, process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} else {
  await runOtherCommand();
}

/** `mcp`, `sweep`, `help`, or a refusal: the commands without options of their own. */
async function runOtherCommand(): Promise<void> {
  let parsed: ReturnType<typeof readArguments>;
  try {
    parsed = readArguments();
  } catch (error) {
    // parseArgs refuses an unknown option by throwing: say which, and how to call.
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const { positionals, values } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stderr.write(`${USAGE}\n`);
  } else if (command === 'mcp' && rest.length === 0) {
    await runMcpOverStdio(process.env);
  } else if (command === 'sweep' && rest.length === 0) {
    process.exitCode = await runSweep(process.env);
  } else {
    process.stderr.write(`${command === undefined ? 'No command given.' : `Unknown command "${positionals.join(' ')}".`}\n${USAGE}\n`);
    process.exitCode = 2;
  }
}

function readArguments() {
  return parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
}
