/**
 * @module The logger of a site's process (the web server of Events, Rawdata
 * and GiftGenius): JSON lines for a log collector, readable lines for a
 * person at a terminal.
 */
import { pino, type Logger } from 'pino';

/** Options of {@link createSiteLogger}. */
export type SiteLoggerOptions = {
  /** Whether standard output is a terminal. Default: `process.stdout.isTTY`. */
  terminal?: boolean;
  /** `LOG_FORMAT`: `json` or `pretty` to choose whatever the output is; anything else (or unset) decides by `terminal`. Default: `process.env.LOG_FORMAT`. */
  format?: string | undefined;
  /** `LOG_LEVEL`. Default: `process.env.LOG_LEVEL`, else `info`. */
  level?: string | undefined;
};

/**
 * A pino logger named `name` writing to standard output: when that is a
 * terminal, readable lines through pino's own pretty transport (pino-pretty,
 * in a worker thread: `[12:00:01.123] INFO (agentready-events): AgentReady
 * Events is listening` and each field on its own line); otherwise one JSON
 * object a line, as pino writes them (for `journalctl`, Docker, a collector).
 * `LOG_FORMAT=json` or `LOG_FORMAT=pretty` overrides the choice.
 *
 * @see https://getpino.io/#/docs/pretty
 * @example const logger = createSiteLogger('agentready-events');
 */
export function createSiteLogger(name: string, options: SiteLoggerOptions = {}): Logger {
  const terminal = options.terminal ?? process.stdout.isTTY === true;
  const format = 'format' in options ? options.format : process.env['LOG_FORMAT'];
  const level = ('level' in options ? options.level : process.env['LOG_LEVEL']) || 'info';
  const pretty = format === 'pretty' || (format !== 'json' && terminal);
  if (!pretty) return pino({ name, level });
  return pino({
    name,
    level,
    transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
  });
}
