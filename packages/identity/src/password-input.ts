/**
 * @module A new account's password as an operator's command reads it: from
 * the terminal, asked twice without echo, or from standard input when that
 * is a pipe or a file (the first line). Never from an argument, which other
 * users of the machine see in the process list and the shell keeps in its
 * history.
 */
import type { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { read } from 'read';
import { passwordProblem } from './passwords.ts';

/** {@link readNewPassword}'s answer: the password, or why there is none, in one sentence for the operator. */
export type NewPasswordInput = { ok: true; password: string } | { ok: false; problem: string };

/** Where {@link readNewPassword} reads and asks: standard input, and the terminal's output for the prompts (stderr, so stdout keeps the command's answer). */
export type PasswordStreams = { input: Readable & { isTTY?: boolean }; prompts: Writable & { isTTY?: boolean } };

/**
 * Reads a new password: on a terminal, asks `Password for <email>:` and
 * `Repeat it:` without echo; otherwise reads the input to its end and takes
 * its first line (without the line break). Checked against the toolkit's
 * password rules (`passwordProblem`: length).
 *
 * @returns the password; or the problem when the input is empty, the two
 *   answers differ, or the password breaks the rules. Interrupted at the
 *   prompt (Ctrl-C, Ctrl-D), no password was given.
 */
export async function readNewPassword(email: string, streams: PasswordStreams): Promise<NewPasswordInput> {
  let password: string;
  if (streams.input.isTTY) {
    try {
      const ask = async (prompt: string) => {
        // Ctrl-D closes the prompt without an answer, and `read` would wait for one forever:
        // the terminal's input paused and no answer came with it counts as no answer.
        let noAnswer = () => {};
        const closed = new Promise<string>((resolve) => (noAnswer = () => setImmediate(() => resolve(''))));
        streams.input.once('pause', noAnswer);
        try {
          return await Promise.race([read({ prompt, silent: true, replace: '', input: streams.input, output: streams.prompts }), closed]);
        } finally {
          streams.input.off('pause', noAnswer);
          // Nothing was echoed, not even the Enter: end the prompt's line.
          streams.prompts.write('\n');
        }
      };
      password = await ask(`Password for ${email}:`);
      if (password !== '' && (await ask('Repeat it:')) !== password) return { ok: false, problem: 'The two passwords differ; nothing was saved.' };
    } catch {
      return { ok: false, problem: 'No password was given; nothing was saved.' };
    }
  } else {
    password = (await text(streams.input)).split(/\r?\n/, 1)[0] ?? '';
  }
  if (password === '') return { ok: false, problem: 'No password was given: type it when asked, or send it on standard input (never as an argument).' };
  const problem = passwordProblem(password);
  return problem === null ? { ok: true, password } : { ok: false, problem };
}
