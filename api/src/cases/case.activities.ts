import type { CaseActivities } from '@crisis/workflows';
import type { CaseCommandsHandler } from './case-commands.handler';

/** The case workflow's activities: thin adapters over the one writer of cases. */
export function createCaseActivities({ cases }: { cases: CaseCommandsHandler }): CaseActivities {
  return {
    loadCaseState: (caseId) => cases.loadState(caseId),
    applyCaseCommand: (caseId, command) => cases.apply(caseId, command),
    raiseCaseNotifications: (caseId, commandId, notifications) => cases.raiseNotifications(caseId, commandId, notifications),
  };
}
