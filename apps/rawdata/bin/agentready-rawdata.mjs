#!/usr/bin/env node
// The `agentready-rawdata` command (`npx agentready-rawdata mcp` in this repository,
// or `node <repo>/apps/rawdata/bin/agentready-rawdata.mjs mcp` from anywhere).
// The sources are TypeScript: load them through tsx, resolved from this file's folder.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/rawdata-command.ts');
