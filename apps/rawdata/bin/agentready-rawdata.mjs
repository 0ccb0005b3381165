#!/usr/bin/env node
// The `agentready-rawdata` command (`npx agentready-rawdata mcp` in this repository,
// or `node <repo>/apps/rawdata/bin/agentready-rawdata.mjs mcp` from anywhere).
// The sources are TypeScript: load them through tsx, resolved from this file's folder, and the
// workspace's packages through their sources (the `agentready-source` export condition), as in tests.
import { register } from 'tsx/esm/api';
import { resolveWorkspaceSources } from '../../../scripts/workspace-sources.mjs';

register();
resolveWorkspaceSources();
await import('../src/cli/rawdata-command.ts');
