import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITION } from './scripts/workspace-sources.mjs';

export default defineConfig({
  // The workspace's packages resolve to their TypeScript sources (their `agentready-source` export condition), not to builds;
  // `__vitest__` is the environment globalSetup runs in.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  environments: {
    ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
    __vitest__: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Browser tests wait for what the page says; a loaded CI machine can take long to say it.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Browser tests share one Chromium per file; two cores run two files at once.
    maxWorkers: 2,
    // Each site's browser part is built once per run: the toolkit's page script (packages/agentready/dist/browser), apps/events/dist/web, apps/rawdata/dist/web,
    // and GiftGenius's widget (apps/giftgenius/dist/widget) with its test host page.
    globalSetup: [
      'packages/agentready/test/support/build-page-script.ts',
      'apps/events/test/support/build-web.ts',
      'apps/rawdata/test/support/build-web.ts',
      'apps/giftgenius/test/support/build-widget.ts',
    ],
  },
});
