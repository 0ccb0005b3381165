/**
 * @module `/activity`: what the chat apps a signed-in person connected did
 * for them, and, set apart, the checkouts they confirmed themselves (their
 * click on Confirm in the chat, the app-only `create_checkout_session`),
 * newest first (@agentready/identity/pages `ActivityContent`, in this site's
 * words): a touched checkout links to the person's recent checkouts; times
 * in Taipei time. Each row shows its trace id, the reference an operator's
 * `agentready-giftgenius trace` takes.
 */
import { ActivityContent, type ActivityContentProps, type ActivitySiteWords } from '@agentready/identity/pages';
import { shownDateTime } from '../site-time.ts';

/** The tool only the person's click on Confirm calls (through the chat app's view, never its model). */
const PERSON_CONFIRM_TOOL = 'create_checkout_session';

/** GiftGenius's words, links and times on the activity page. */
export const GIFTGENIUS_ACTIVITY_WORDS: ActivitySiteWords = {
  personSteps: { [PERSON_CONFIRM_TOOL]: { done: 'You confirmed a checkout', refused: 'You tried to confirm a checkout' } },
  isPersonStep: (row) => row.tool === PERSON_CONFIRM_TOOL,
  outcomes: {
    CONFLICT: 'Refused: it could no longer be done (the price, availability or stock had changed, or it was already done)',
    RATE_LIMITED: "Refused: too many calls, or today's suggestions were used up",
  },
  personOutcomes: { CONFLICT: 'Not done: the price, availability or stock had changed since the checkout was prepared, or it was already done' },
  touchedLink(id) {
    return id.startsWith('cs_') ? { href: '/account#recent-checkouts', text: `checkout ${id}` } : null;
  },
  formatTime: shownDateTime,
  connectPath: '/',
};

/** The activity page of a signed-in person. */
export function ActivityPage(props: Omit<ActivityContentProps, 'words' | 'classes'>) {
  return <ActivityContent {...props} words={GIFTGENIUS_ACTIVITY_WORDS} classes={{ problem: 'problem' }} />;
}
