/**
 * Every workflow of the task queue. This module is the bundle's entry (worker.ts bundles it with
 * bundleWorkflowCode): deterministic code only, no Node built-ins (eslint enforces it), activities
 * imported as types.
 */
export { claimLeaseWorkflow } from './claim-lease';
export { sweepOverdueClaimsWorkflow } from './claims-sweep';
export { expireSmsWindowsWorkflow, lockInactiveUsersWorkflow } from './user-maintenance';
export { caseLifecycleWorkflow } from './case-lifecycle';
export { callbackDispatcherWorkflow } from './callback-dispatcher';
export { callbackTimerWorkflow } from './callback-timer';
export { sweepDueCallbacksWorkflow } from './callbacks-sweep';
export { onlineMeetingWorkflow } from './online-meeting';
export { deliverMessageWorkflow, facilityAlertWorkflow, sweepMessagingWorkflow } from './messaging';
export { ehrDeliveryWorkflow } from './ehr';
