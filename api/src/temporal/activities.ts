import type { Activities } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { createCaseActivities } from '../cases/case.activities';
import type { CaseCommandsHandler } from '../cases/case-commands.handler';
import { createClaimActivities } from '../claims/claims.activities';
import { pooledSql } from '../db/sql';
import { createEhrDeliveryActivities, type EhrConnectionSource } from '../ehr/ehr-delivery.activities';
import type { EhrPort } from '../ehr/ehr.port';
import { createMessagingActivities } from '../messaging/messaging.activities';
import { createOnlineMeetingActivities } from '../online-meetings/online-meetings.activities';
import { createPlacementActivities } from '../placement/placement.activities';
import { createUserMaintenanceActivities } from '../users/user-maintenance.activities';

/** What the activities need; the worker takes them from its Nest application context. */
export interface ActivityDeps {
  sequelize: Sequelize;
  cases: CaseCommandsHandler;
  ehr: EhrPort;
  ehrConnections: EhrConnectionSource;
}

/**
 * Every activity of the task queue, closed over its dependencies (temporalio/samples-typescript
 * "activities-dependency-injection"). Each domain's activities live in its folder; the workflows
 * know only the interfaces in @crisis/workflows.
 */
export function createActivities({ sequelize, cases, ehr, ehrConnections }: ActivityDeps): Activities {
  const db = pooledSql(sequelize);
  return {
    ...createCaseActivities({ cases }),
    ...createClaimActivities({ db }),
    ...createPlacementActivities({ sequelize }),
    ...createUserMaintenanceActivities({ db }),
    ...createOnlineMeetingActivities({ sequelize }),
    ...createMessagingActivities({ sequelize }),
    ...createEhrDeliveryActivities({ sequelize, ehr, connections: ehrConnections }),
  };
}
