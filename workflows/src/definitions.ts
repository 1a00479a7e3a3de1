/**
 * Messages shared by the workflows and their callers (the API through client.ts). Workflow code
 * imports this file, so it must stay free of Node built-ins and of I/O: only
 * defineSignal / defineQuery / defineUpdate constants and plain types.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';

// ---------------------------------------------------------------------------------------------
// Claim lease (spec 03 §7 Claims): one workflow per claim, id `claim-<claimId>`.
// ---------------------------------------------------------------------------------------------

/** Input of claimLeaseWorkflow (also what continueAsNew carries over). */
export interface ClaimLeaseArgs {
  /** claims.id (bigserial, so a string). */
  claimId: string;
  /** ISO instant the claim lapses unless it is extended. */
  expiresAt: string;
}

/** How a lease workflow ended. */
export interface ClaimLeaseResult {
  claimId: string;
  /** 'released' by its holder, 'expired' by this workflow, 'gone' when the row no longer exists. */
  outcome: 'released' | 'expired' | 'gone';
}

/** What the lease workflow currently believes (for diagnostics; the claims row is the truth). */
export interface ClaimLeaseState {
  claimId: string;
  expiresAt: string;
  released: boolean;
  /** Extensions received by this run (the count restarts after continueAsNew). */
  extensions: number;
}

/** The claim was extended: it now lapses at `expiresAt` (already written to the claims row). */
export const extendClaimSignal = defineSignal<[{ expiresAt: string }]>('extendClaim');
/** The holder released the claim (already written to the claims row): the workflow ends. */
export const releaseClaimSignal = defineSignal('releaseClaim');
export const claimStateQuery = defineQuery<ClaimLeaseState>('claimState');

/** The schedule that runs sweepOverdueClaimsWorkflow every minute (one per task queue). */
export const claimsSweepScheduleId = (taskQueue: string) => `claims-sweep-${taskQueue}`;

export const CLAIM_WORKFLOW_PREFIX = 'claim-';
export const claimWorkflowId = (claimId: string | number) => `${CLAIM_WORKFLOW_PREFIX}${claimId}`;

/** The default task queue; the API and the worker both read TEMPORAL_TASK_QUEUE. */
export const DEFAULT_TASK_QUEUE = 'crisis';
