/**
 * @module Starts the payment provider stand-in for a test over real HTTP on
 * 127.0.0.1 (any free port), and drives it as a test does: plain requests
 * with the secret key, and its `/_stand-in` switches.
 */
import { startProviderStandIn } from '../../src/provider/provider-listener.ts';
import type { CheckoutSessionWire, ProductWire } from '../../src/provider/provider-wire.ts';

/** The secret key the test stand-ins accept. */
export const TEST_PROVIDER_KEY = 'sk_test_provider_stand_in_for_tests_5f3a';

/** A plain HTTP answer: status, headers and the JSON (or text) body. */
export type ProviderAnswer = { status: number; headers: Headers; body: any; text: string };

/** A running stand-in and the requests a test sends it. */
export type TestProvider = {
  /** Origin without a trailing slash. */
  url: string;
  /** Sends a request with the secret key (or `key`), a JSON body when given. */
  send(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; key?: string | null }): Promise<ProviderAnswer>;
  /** Creates a checkout session with `Idempotency-Key: key`. */
  createSession(key: string, body: unknown): Promise<ProviderAnswer>;
  product(id: string): Promise<ProductWire>;
  sessions(): Promise<CheckoutSessionWire[]>;
  setSwitches(change: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
};

/** Starts a stand-in with {@link TEST_PROVIDER_KEY} on a free loopback port; `now` is its clock (default the system clock). */
export async function startTestProvider(options: { now?: () => Date } = {}): Promise<TestProvider> {
  const running = await startProviderStandIn({ port: 0, host: '127.0.0.1', secretKey: TEST_PROVIDER_KEY, ...(options.now && { now: options.now }) });
  const send: TestProvider['send'] = async (method, path, { body, headers = {}, key = TEST_PROVIDER_KEY } = {}) => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      headers: {
        ...(key !== null && { Authorization: `Bearer ${key}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      redirect: 'manual',
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  const expectOk = (answer: ProviderAnswer, what: string) => {
    if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  };
  return {
    url: running.url,
    send,
    createSession: (key, body) => send('POST', '/v1/checkout/sessions', { body, headers: { 'Idempotency-Key': key } }),
    product: async (id) => expectOk(await send('GET', `/v1/products/${id}`), `product ${id}`),
    sessions: async () => expectOk(await send('GET', '/_stand-in/sessions'), 'the session list').data,
    setSwitches: async (change) => void expectOk(await send('PUT', '/_stand-in/switches', { body: change }), 'the switches'),
    close: () => running.close(),
  };
}
