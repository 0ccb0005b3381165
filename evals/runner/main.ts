/**
 * @module The process of `npm run eval`: runs the command with the process's
 * arguments and ends with its exit code (evals/runner/eval-command.ts).
 */
import { runEvalCommand } from './eval-command.ts';

process.exitCode = await runEvalCommand(process.argv.slice(2));
