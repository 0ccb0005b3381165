/**
 * @module Runs the payment provider stand-in as a process of its own
 * (`node --import tsx apps/giftgenius/src/provider/provider-main.ts`); inside
 * another process it starts through provider-listener.ts.
 *
 * Environment of the process: GIFTGENIUS_PROVIDER_PORT (default 3210; 0 for
 * any free port), HOST (default 127.0.0.1), GIFTGENIUS_PROVIDER_KEY (the
 * secret key callers must send; default `sk_test_giftgenius_stand_in`).
 * Logs with pino to stdout; on SIGTERM or SIGINT it stops listening, closes
 * open connections and exits 0. Its state lives in memory: every start
 * begins from the catalog. Nothing imports this module: it is only the
 * process's entry.
 */
import { pino } from 'pino';
import { wholeNumberSetting } from 'agentready/settings';
import { DEFAULT_PROVIDER_KEY, DEFAULT_PROVIDER_PORT, startProviderStandIn, type RunningProviderStandIn } from './provider-listener.ts';
import { SECRET_KEY_PATTERN } from './provider-stand-in.ts';

/** The process: reads its environment, listens, and stops cleanly on SIGTERM or SIGINT. */
async function runProviderProcess(): Promise<void> {
  const logger = pino({ name: 'giftgenius-provider-stand-in' });
  const port = wholeNumberSetting(logger, 'GIFTGENIUS_PROVIDER_PORT', { fallback: DEFAULT_PROVIDER_PORT, min: 0, max: 65_535 });
  const host = process.env.HOST || '127.0.0.1';
  const secretKey = process.env.GIFTGENIUS_PROVIDER_KEY || DEFAULT_PROVIDER_KEY;
  if (!SECRET_KEY_PATTERN.test(secretKey)) {
    logger.fatal('GIFTGENIUS_PROVIDER_KEY must be letters, digits and . _ ~ + / - only (a bearer token), such as sk_test_giftgenius_stand_in');
    process.exit(2);
  }
  let running: RunningProviderStandIn;
  try {
    running = await startProviderStandIn({ port, host, secretKey, logger });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${port} is already in use; set GIFTGENIUS_PROVIDER_PORT to another one` : (error as Error).message;
    logger.fatal({ host, port, code }, `the payment provider stand-in could not listen: ${reason}`);
    process.exit(1);
  }
  logger.info({ url: running.url, defaultKey: secretKey === DEFAULT_PROVIDER_KEY }, 'the payment provider stand-in is listening (state in memory)');
  const shutDown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'the payment provider stand-in is stopping');
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
}

// Only a process's entry: importing this module starts the stand-in.
await runProviderProcess();
