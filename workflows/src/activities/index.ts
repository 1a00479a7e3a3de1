import type { Pool } from 'pg';
import { createCaseActivities } from './cases';
import { createClaimActivities } from './claims';
import { createPlacementActivities } from './placement';
import { createUserMaintenanceActivities } from './user-maintenance';

export type { ExpireClaimResult } from './claims';
export type { ApplyCaseCommandOutcome, CaseNotification } from './cases';

/** What activities need from the outside world; the worker builds it once per process. */
export interface ActivityDeps {
  pool: Pool;
}

/**
 * Every activity of the task queue, closed over its dependencies (temporalio/samples-typescript
 * "activities-dependency-injection"). Workflows import only the *type* of this object.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCaseActivities(deps),
    ...createClaimActivities(deps),
    ...createPlacementActivities(deps),
    ...createUserMaintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
