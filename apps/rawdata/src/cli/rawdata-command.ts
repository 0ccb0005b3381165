/**
 * @module `agentready-rawdata <command>`: the Rawdata site's command line.
 * `mcp` serves the tools over stdio; `trace` prints a journey from the audit
 * evidence; `autonomy` prints the autonomy matrix; `analyst` gives a person
 * an account and profile.
 */
import { ANALYST_USAGE, runAnalystCommand } from './analyst-command.ts';
import { runAutonomyCommand } from './autonomy-command.ts';
import { runMcpOverStdio } from './mcp-stdio.ts';
import { runTraceCommand, TRACE_USAGE } from './trace-command.ts';

const USAGE = `Usage: agentready-rawdata mcp
       agentready-rawdata trace <traceId> [--json]
       agentready-rawdata autonomy [--json]
       agentready-rawdata analyst <email> --password <password> --clearance <level> [--unit <name>] [--operator]

  mcp    Serve the Rawdata tools over stdio for a desktop MCP client.
         Environment:
           AGENTREADY_RAWDATA_TOKEN  an access token from the site's /connect page (every tool acts
                                     for the analyst whose token it is)
           DATABASE_URL              the site's database (default: file:data/rawdata.sqlite in the repository)
           SITE_URL                  where the person opens review links (default: http://127.0.0.1:3100)

${TRACE_USAGE}

  autonomy [--json]
         Print, for each tool, whether an agent may call it alone, needs the person, or may never call it.

${ANALYST_USAGE}`;

// A reader that stops early (`| head`) closes the pipe: the command just ends, as a shell tool does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const output = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
const [command, ...rest] = process.argv.slice(2);
if (command === 'trace') {
  process.exitCode = await runTraceCommand(rest, process.env, output);
} else if (command === 'analyst') {
  process.exitCode = await runAnalystCommand(rest, process.env, output);
} else if (command === 'autonomy' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
  process.exitCode = runAutonomyCommand({ json: rest[0] === '--json' }, output.out);
} else if (command === 'mcp' && rest.length === 0) {
  await runMcpOverStdio(process.env);
} else {
  const help = command === 'help' || command === '--help' || command === '-h';
  if (!help) process.stderr.write(`${command === undefined ? 'No command given.' : `Unknown command "${[command, ...rest].join(' ')}".`}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = help ? 0 : 2;
}
