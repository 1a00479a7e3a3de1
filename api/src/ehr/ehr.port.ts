/**
 * The one port to a hospital's EHR (spec 01 §7 EHR calls). Hospitals run Epic or athenahealth;
 * both speak FHIR R4, so one adapter serves both and the dialect only changes how a patient id is
 * searched. Every call takes the facility's connection; nothing here knows about cases.
 *
 * Errors: an adapter throws `EhrError` with a kind the callers map to the spec's messages
 * (`unauthorized` → the settings test button's "key refused"; `unavailable` → retried by the
 * Temporal activities; `rejected` → the EHR refused the resource, not retried).
 */
import type { EhrPatientLookup, EhrPlanResult } from '@crisis/forms';

export type EhrDialect = 'epic' | 'athena';

/** A facility's EHR connection as the adapter needs it (the private key never leaves the API). */
export interface EhrConnection {
  facilityId: number;
  dialect: EhrDialect;
  /** FHIR R4 base, e.g. https://fhir.example.org/api/FHIR/R4 */
  baseUrl: string;
  /** SMART Backend Services token endpoint. */
  tokenUrl: string;
  clientId: string;
  /** PKCS#8 PEM of the RS384 key whose public half the EHR holds. */
  privateKeyPem: string;
  /** `kid` of that key in the JWKS the EHR was given. */
  keyId: string;
  /** The facility's EHR department (athena `ah-department`; Epic: informational). */
  departmentId: string;
}

/** A patient's address as the EHR gives it (the case-creation look-up's shape, forms/src/cases/ehr.ts). */
export type EhrAddress = NonNullable<EhrPatientLookup['address']>;

export type EhrCoverage = NonNullable<EhrPatientLookup['insurances']>[number];

/** What the EHR knows of a patient: the look-up's answer (what case creation fills in) and the FHIR Patient.id used in references. */
export interface EhrPatient extends EhrPatientLookup {
  fhirId: string;
}

export interface EhrEncounter {
  fhirId: string;
  /** FHIR Patient.id of Encounter.subject. */
  patientFhirId: string;
  status: string;
  /** ISO date-time, when the EHR gives one. */
  start: string | null;
}

/** One row of the EHR payer search (spec 02 §1 Athena payer search result): the route's answer as is. */
export type EhrPlan = EhrPlanResult;

export interface EhrDocument {
  patientFhirId: string;
  encounterFhirId: string;
  /** 'Tele-psych Initial Assessment' for assessments (spec 02 §3). */
  title: string;
  contentType: 'application/pdf' | 'text/plain';
  content: Buffer;
  /** Stable for one logical upload: a retried upload must not create a second DocumentReference. */
  idempotencyKey: string;
  /** ISO date-time the document describes. */
  date: string;
}

export interface EhrClaim {
  patientFhirId: string;
  encounterFhirId: string;
  /** ICD-10-CM codes of the evaluation, primary first. */
  diagnosisCodes: string[];
  /** CPT / billing code of the service. */
  serviceCode: string;
  serviceDate: string;
  providerNpi: string | null;
  idempotencyKey: string;
}

export type EhrErrorKind = 'unauthorized' | 'not-found' | 'unavailable' | 'rejected' | 'misconfigured';

export class EhrError extends Error {
  constructor(
    readonly kind: EhrErrorKind,
    message: string,
    /** HTTP status the EHR answered, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EhrError';
  }
}

export interface EhrPort {
  /** Token + CapabilityStatement: what the facility settings' test button runs. */
  testConnection(conn: EhrConnection): Promise<{ fhirVersion: string; software: string | null }>;
  /** Patient by Epic id / MRN (identifier search); null when the EHR has none. */
  findPatient(conn: EhrConnection, patientId: string, o?: { withInsurances?: boolean }): Promise<EhrPatient | null>;
  /** Encounter by id; null when the EHR has none. */
  readEncounter(conn: EhrConnection, encounterId: string): Promise<EhrEncounter | null>;
  /** InsurancePlan search by plan name. */
  searchPlans(conn: EhrConnection, planName: string): Promise<EhrPlan[]>;
  /** Creates (or finds, by idempotency key) the DocumentReference; returns its id. */
  uploadDocument(conn: EhrConnection, doc: EhrDocument): Promise<{ id: string }>;
  /** Creates (or finds, by idempotency key) the Claim; returns its id. */
  createClaim(conn: EhrConnection, claim: EhrClaim): Promise<{ id: string }>;
}

/** Nest injection token of the port. */
export const EHR_PORT = Symbol('EHR_PORT');
