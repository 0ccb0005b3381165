/**
 * @module `agentready-giftgenius <command>`: GiftGenius's command line for an
 * operator. `person add` gives a person an account; `trace` prints a tool
 * call's journey from the audit evidence (agentready/runtime, runTraceCommand).
 */
import { runTraceCommand } from 'agentready/runtime';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareGiftGeniusDatabase } from '../store/prepare-database.ts';
import { PERSON_USAGE, runPersonCommand } from './person-command.ts';

const TRACE_USAGE = `  trace <traceId> [--json]
         Print the journey of one tool call: the call with that trace id (from a log line or an audit
         record) and the calls linked to it through its checkout draft or confirmation, oldest first
         (prepare_checkout, the person's Confirm, its replays). --json prints them as a JSON array.
         Environment: DATABASE_URL (default: file:data/giftgenius.sqlite in the repository)`;

const USAGE = `Usage: agentready-giftgenius person add <email>
       agentready-giftgenius trace <traceId> [--json]

${PERSON_USAGE}

${TRACE_USAGE}`;

// A reader that stops early (`| head`) closes the pipe: the command just ends, as a shell tool does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const output = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
const env = process.env;
const [command, ...rest] = process.argv.slice(2);
if (command === 'person') {
  process.exitCode = await runPersonCommand(rest, env, { input: process.stdin, prompts: process.stderr }, output);
} else if (command === 'trace') {
  const openDatabase = () => prepareGiftGeniusDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, mustExist: true });
  process.exitCode = await runTraceCommand(rest, { command: 'agentready-giftgenius trace', appName: 'GiftGenius', openDatabase }, output);
} else {
  const help = command === 'help' || command === '--help' || command === '-h';
  if (!help) process.stderr.write(`${command === undefined ? 'No command given.' : `Unknown command "${[command, ...rest].join(' ')}".`}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = help ? 0 : 2;
}
