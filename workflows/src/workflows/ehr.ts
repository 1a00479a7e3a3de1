/**
 * One EHR delivery (an evaluation document, a case outcome, a claim): tried until the EHR takes it,
 * with waits doubling from `retrySeconds` up to 10 minutes, then failed for good and the
 * coordinators told. The ehr_deliveries row is the truth; a worker killed at any point resumes
 * where the row says, and the EHR's conditional create keeps a retried upload from filing twice.
 */
import { ActivityFailure, ApplicationFailure, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/workflow';
import type { Activities, EhrDeliveryArgs, EhrDeliveryOutcome } from '../definitions';

const record = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function ehrDeliveryWorkflow(args: EhrDeliveryArgs): Promise<EhrDeliveryOutcome> {
  const options: ActivityOptions = {
    startToCloseTimeout: '2 minutes',
    retry: {
      initialInterval: `${args.retrySeconds} seconds`,
      backoffCoefficient: 2,
      maximumInterval: '10 minutes',
      maximumAttempts: args.attempts,
      nonRetryableErrorTypes: ['EhrRejected'],
    },
  };
  // A local activity runs inside the workflow task (a delivery comes with every completed
  // evaluation: no activity task on the server and no second workflow task for the usual case);
  // its waits beyond a minute become workflow timers. Older executions replay with the activity.
  const ehr = patched('ehr-delivery-local-activity') ? proxyLocalActivities<Activities>(options) : proxyActivities<Activities>(options);
  try {
    return await ehr.deliverToEhr(args.deliveryId, args.round);
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const reason = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : 'The EHR did not answer';
    await record.recordEhrDeliveryFailed(args.deliveryId, args.round, reason);
    return 'failed';
  }
}
