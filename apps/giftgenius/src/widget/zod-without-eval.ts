/**
 * @module Switches zod (which the MCP SDK inside ext-apps uses) to its
 * jitless parser before any schema exists. The widget's CSP has no
 * 'unsafe-eval', and zod's JIT probes `new Function` when a schema is built
 * at import time, which the browser would report as a CSP violation.
 * gift-finder-main.tsx imports this module first, so it runs before the SDK's.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
