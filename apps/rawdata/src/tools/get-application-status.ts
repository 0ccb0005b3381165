/**
 * @module `dap_rawdata_get_application_status` (read): one of the person's
 * applications (an operator may read any): its status, items and, when
 * detailed, the payload exactly as submitted.
 */
import { z } from 'zod';
import { findApplication } from '../domain/application-records.ts';
import { applicationShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, failed, responseFormatInput } from './rawdata-tool.ts';

export const getApplicationStatus = defineRawdataTool({
  name: 'dap_rawdata_get_application_status',
  title: "Read an application's status",
  effect: 'read',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Reads one of the person's applications (an operator may read any application): submitted, approved or rejected (with the operator's note), and its items. " +
    'response_format "detailed" adds the payload exactly as submitted.',
  input: z.object({ application_id: z.string().min(1).max(80), response_format: responseFormatInput }),
  output: z.object({ application: applicationShape }),

  async handler(input, { app: ctx, principal }) {
    const found = await findApplication(ctx, principal, input.application_id);
    if (!found.ok) return failed(found);
    const { payload, payload_json: _json, generated_code: _code, ...summary } = found.value;
    const application = input.response_format === 'detailed' ? { ...summary, payload } : summary;
    return {
      ok: true,
      data: { application },
      guidance: { availableActions: ['dap_rawdata_get_application_status'], currentTarget: { kind: 'application', id: summary.application_id } },
      // The application's draft version links the read to its journey.
      evidence: {
        ruleVersion: found.value.rule_set,
        metadataVersion: found.value.metadata_version,
        draft: { id: summary.draft.id, version: summary.draft.version, hash: found.value.draft_hash },
        resultingIds: [],
      },
    };
  },

  text({ application }) {
    const note = application.decision_note ? ` Note: ${JSON.stringify(application.decision_note)}.` : '';
    return `Application ${application.application_id} (project ${JSON.stringify(application.project_name)}, draft version ${application.draft.version}) is ${application.status}.${note}`;
  },
});
