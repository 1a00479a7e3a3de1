import type { Session } from '../auth/session';

/**
 * Who opens the evaluation screen (spec 02 §6): the provider (the API decides which requests are
 * his, and the screen's mode whether he may write), and the ITP staff, who view it read-only.
 */
export const evaluationScreenAllowed = (s: Session) => s.ability.can('access', 'ProviderCases') || s.ability.can('update', 'CaseStatus');
