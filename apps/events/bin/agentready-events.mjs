#!/usr/bin/env node
// The `agentready-events` command (`npx agentready-events mcp` in this repository,
// or `node <repo>/apps/events/bin/agentready-events.mjs mcp` from anywhere).
// The sources are TypeScript: load them through tsx, resolved from this file's folder.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/events-command.ts');
