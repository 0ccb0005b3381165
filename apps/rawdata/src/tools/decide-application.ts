/**
 * @module `decide_application` (site-only): an operator approves or rejects
 * a submitted application, with a note (required to reject).
 */
import { multilineText } from 'agentready';
import { z } from 'zod';
import { decideApplication } from '../domain/application-records.ts';
import { applicationShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, failed } from './rawdata-tool.ts';

export const decideApplicationTool = defineRawdataTool({
  name: 'decide_application',
  title: 'Approve or reject an application',
  effect: 'write',
  capability: DATA_COPY_CAPABILITY,
  description: 'An operator approves or rejects a submitted application, with a note (required to reject).',
  input: z.object({ application_id: z.string().min(1).max(80), decision: z.enum(['approved', 'rejected']), note: multilineText(z.string().max(500)) }),
  output: z.object({ application: applicationShape }),

  async handler(input, { app: ctx, principal }) {
    const decided = await decideApplication(ctx, principal, { applicationId: input.application_id, decision: input.decision, note: input.note });
    if (!decided.ok) return failed(decided);
    return { ok: true, data: { application: decided.value }, evidence: { resultingIds: [decided.value.application_id] } };
  },
});
