#!/usr/bin/env node
// The `agentready-giftgenius` command (`npm run giftgenius:person -- add <email>`,
// `npm run giftgenius:trace -- <traceId>` in this repository, or
// `node <repo>/apps/giftgenius/bin/agentready-giftgenius.mjs` from anywhere).
// The sources are TypeScript: load them through tsx, resolved from this file's folder, and the
// workspace's packages through their sources (the `agentready-source` export condition), as in tests.
import { register } from 'tsx/esm/api';
import { resolveWorkspaceSources } from '../../../scripts/workspace-sources.mjs';

register();
resolveWorkspaceSources();
await import('../src/cli/giftgenius-command.ts');
