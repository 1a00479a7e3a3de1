/**
 * Delivery of what leaves the platform (ARCHITECTURE "SMS or voice with confirmation and
 * escalation"; issue: durable delivery). The outbox and facility_alerts rows are the truth; these
 * workflows only drive them, so a worker killed at any point resumes where the rows say.
 */
import { condition, patched, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { facilityAlertConfirmedSignal, type Activities, type DeliveryOutcome, type FacilityAlertArgs } from '../definitions';

// A provider outage is retried for about an hour (1 s, 2 s, … then every 5 minutes).
const delivery = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 20 },
});
const alertStepOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const alerts = proxyActivities<Activities>(alertStepOptions);
// The same steps as local activities: run inside the workflow task, with no activity task on the
// server and no extra workflow task each. An alert comes with every completed evaluation; this
// keeps its cost on the Temporal server to a start and a workflow task or two.
const localAlerts = proxyLocalActivities<Activities>(alertStepOptions);
const sweep = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 3 } });

/** One outbox row, sent once. */
export async function deliverMessageWorkflow(messageId: string): Promise<DeliveryOutcome> {
  return delivery.deliverMessage(messageId);
}

/**
 * One facility alert: an SMS or a call per attempt, each followed by a wait for the confirmation
 * (the webhook writes it to the row, then signals); unconfirmed after the last attempt, the
 * coordinators are told. Confirmation and escalation are each written once, under the row's own
 * conditions, so a retried activity or a late reply cannot produce both.
 */
export async function facilityAlertWorkflow(args: FacilityAlertArgs): Promise<'confirmed' | 'escalated' | 'gone'> {
  let signalled = false;
  setHandler(facilityAlertConfirmedSignal, () => {
    signalled = true;
  });
  // Executions started before the local activities replay with the activities they ran.
  const step = patched('facility-alert-local-activities') ? localAlerts : alerts;
  for (let attempt = 1; attempt <= args.attempts; attempt++) {
    const sent = await step.sendFacilityAlertAttempt(args.alertId, attempt);
    if (sent === 'gone' || sent === 'escalated') return sent === 'gone' ? 'gone' : 'escalated';
    if (sent !== 'confirmed') await condition(() => signalled, args.retrySeconds * 1000);
    // The row decides: a signal lost on the way is caught here, a stray one changes nothing.
    if (sent === 'confirmed' || (await step.facilityAlertConfirmed(args.alertId))) {
      await step.recordFacilityAlertConfirmed(args.alertId);
      return 'confirmed';
    }
    signalled = false;
  }
  // The last answer may have come in while the last wait ended: escalation is refused for a confirmed alert.
  return (await step.escalateFacilityAlert(args.alertId)) ? 'escalated' : 'confirmed';
}

/** Safety net (a schedule, every minute): rows whose delivery never started get their workflow. */
export async function sweepMessagingWorkflow(): Promise<number> {
  return sweep.sweepMessaging(MESSAGING_SWEEP_GRACE_SECONDS);
}

/** How long a row may wait for its workflow before the sweep starts it. */
export const MESSAGING_SWEEP_GRACE_SECONDS = 20;
