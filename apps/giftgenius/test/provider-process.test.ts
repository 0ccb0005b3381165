/**
 * The payment provider stand-in as a process of its own, as an operator
 * starts it: it listens where its environment says, accepts the secret key
 * its environment names (and no other), and on SIGTERM stops and exits 0.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startSiteProcess, type SiteProcess } from '@agentready/testing';
import { DEFAULT_PROVIDER_KEY } from '../src/provider/provider-listener.ts';

const ENTRY = fileURLToPath(new URL('../src/provider/provider-main.ts', import.meta.url));
const started: SiteProcess[] = [];
afterEach(async () => {
  for (const running of started.splice(0)) await running.kill();
});

it('serves with the key from GIFTGENIUS_PROVIDER_KEY and exits 0 on SIGTERM', async () => {
  const key = 'sk_test_from_the_environment_31c8';
  const provider = await startSiteProcess({
    entry: ENTRY,
    env: { GIFTGENIUS_PROVIDER_PORT: '0', GIFTGENIUS_PROVIDER_KEY: key },
    listeningMessage: 'the payment provider stand-in is listening (state in memory)',
  });
  started.push(provider);
  const page = await fetch(`${provider.url}/v1/products?limit=3`, { headers: { Authorization: `Bearer ${key}` } });
  expect(page.status).toBe(200);
  expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(3);
  const defaultKey = await fetch(`${provider.url}/v1/products?limit=3`, { headers: { Authorization: `Bearer ${DEFAULT_PROVIDER_KEY}` } });
  expect(defaultKey.status).toBe(401);
  process.kill(provider.pid, 'SIGTERM');
  expect(await provider.exited).toBe(0);
});

it('refuses to start, exit code 2, when GIFTGENIUS_PROVIDER_KEY is not a bearer token', async () => {
  const start = startSiteProcess({
    entry: ENTRY,
    env: { GIFTGENIUS_PROVIDER_PORT: '0', GIFTGENIUS_PROVIDER_KEY: 'two words' },
    listeningMessage: 'the payment provider stand-in is listening (state in memory)',
  });
  await expect(start).rejects.toThrow('exited with code 2');
});
