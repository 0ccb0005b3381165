/**
 * @module Builds an app's browser code for a test run as `npm start` builds
 * it. vitest runs with NODE_ENV=test, and Vite then compiles JSX in its
 * development form (every element carrying its source file's absolute path
 * and line), so a bundle built inside a test run is bigger than the one
 * people get, and its size depends on where the repository was cloned.
 */

/**
 * Runs `vite build` with `configFile` in production mode, with NODE_ENV set
 * to `production` for the build and restored afterwards.
 *
 * @throws the build's error (NODE_ENV is restored first).
 */
export async function buildForProduction(configFile: string): Promise<void> {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    // Vite is an optional peer: loaded by the one helper that builds.
    const { build } = await import('vite');
    await build({ configFile, logLevel: 'warn', mode: 'production' });
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
}
