/**
 * @module `/activity`: what the agents a signed-in person connected did for
 * them, and, set apart, what the person did themselves on the site's pages
 * (the request form, Confirm, an operator's decision: the `ui` surface),
 * newest first (@agentready/identity/pages `ActivityContent`, in this site's
 * words): touched drafts link to their review page, applications to their
 * page; times in Taipei time. Each row shows its trace id, the reference an
 * operator's `agentready-rawdata trace` takes.
 */
import { ActivityContent, type ActivityContentProps, type ActivitySiteWords } from '@agentready/identity/pages';
import { shownTime } from '../site-time.ts';

/** Rawdata's words, links and times on the activity page. */
export const RAWDATA_ACTIVITY_WORDS: ActivitySiteWords = {
  personSteps: {
    prepare_draft_from_form: { done: 'You sent the request form, which prepared a draft', refused: 'You tried to send the request form' },
    approve_application_draft: { done: 'You confirmed a draft version and got its confirmation code', refused: 'You tried to confirm a draft version' },
    decide_application: { done: 'You decided on an application', refused: 'You tried to decide on an application' },
  },
  outcomes: {
    CONFLICT: 'Refused: it could no longer be done (the draft had changed since it was confirmed, the code was used or expired, or it was already done)',
    BLOCKED: "Stopped: the data platform's rules do not allow this copy as asked",
  },
  personOutcomes: { CONFLICT: 'Not done: the draft had changed since you reviewed it, or it was already done' },
  touchedLink(id) {
    if (id.startsWith('app-')) return { href: `/applications/${encodeURIComponent(id)}`, text: `application ${id}` };
    return null;
  },
  draftLink: (draftId) => ({ href: `/drafts/${encodeURIComponent(draftId)}/review`, text: `draft ${draftId}` }),
  formatTime: shownTime,
  connectPath: '/connect',
};

/** The activity page of a signed-in person. */
export function ActivityPage(props: Omit<ActivityContentProps, 'words' | 'classes'>) {
  return <ActivityContent {...props} words={RAWDATA_ACTIVITY_WORDS} classes={{ problem: 'problem' }} />;
}
