import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CaseStatus,
  DivisionType,
  ErrorCode,
  UserType,
  ageInYears,
  allowedTargets,
  availableRequestTypes,
  capitalizeName,
  caseCreateProblems,
  caseStatusGroupOf,
  caseStatusLabel,
  initialRequestStatus,
  isItpStaff,
  isActiveRequestStatus,
  problemsToFieldErrors,
  acceptsAge,
  monthsBefore,
  RECENT_VISIT_MONTHS,
  type PatientMatch,
  caseReference,
  patientReference,
  responsiblePartyForRelation,
  type AcceptedAges,
  statusAfterRequestCreated,
  statusToReopen,
  type CaseCreateInput,
  type PatientInput,
  type RequestType,
  type UserContext,
  ACTIVITY_KINDS_UNDO_SKIPS,
  ACTIVE_REQUEST_STATUSES,
  fail,
} from '@crisis/forms';
import { CodedError, forbidden, invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { preparedRead } from '../common/prepared-read';
import { select } from '../reference/reference-sql';
import { caseScopeSql, statusAudience } from './case-scope';
import { abilityFor } from '../auth/abilities.guard';
import { insurancesOfCase } from '../case-insurance/insurance-sql';
import { CaseCommandsHandler } from './case-commands.handler';
import { REOPEN_INPUTS_SQL } from './case.repository';

/** ACTIVITY_KINDS_UNDO_SKIPS as an SQL list (constants of forms/, so no bind parameter is needed). */
const UNDO_SKIPS_SQL = ACTIVITY_KINDS_UNDO_SKIPS.map((k) => `'${k}'`).join(', ');

export interface CaseRef {
  id: number;
  patientId: number;
  status: string;
  sourceFacilityId: number;
  sourceDivisionId: number;
}


/**
 * Case creation and the case read model (spec 01 §2, §3, §5, §7). Status changes do not happen
 * here: they are commands on the case workflow (CaseCommandsService).
 */
@Injectable()
export class CasesService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly writer: CaseCommandsHandler,
  ) {}

  /** The case if the user may open it (404 when it does not exist, 403 when out of scope). */
  async findInScope(user: UserContext, caseId: number): Promise<CaseRef> {
    const bind: unknown[] = [caseId];
    const scope = caseScopeSql(user, bind);
    const [row] = await preparedRead<CaseRef & { visible: boolean }>(
      this.sequelize,
      `SELECT c.id, c.patient_id AS "patientId", c.status, c.source_facility_id AS "sourceFacilityId",
              c.source_division_id AS "sourceDivisionId", (${scope}) AS visible
         FROM cases c WHERE c.id = $1`,
      bind,
    );
    if (!row) throw notFound();
    if (!row.visible) throw forbidden();
    return row;
  }

  // -------------------------------------------------------------------------------------------
  // Creation
  // -------------------------------------------------------------------------------------------

  /**
   * Patients matching name and date of birth, each with its last case (spec 01 §2 search result),
   * and what creation tells about them (spec 01 §8, §9): a last case from the old system, the
   * division that accepted the open case, the facilities that saw the patient in the last
   * RECENT_VISIT_MONTHS months (a facility's staff learn only of their own).
   */
  async searchPatients(user: UserContext, q: { firstName: string; lastName: string; dateOfBirth: string }): Promise<PatientMatch[]> {
    const itp = isItpStaff(user.role);
    const rows = await select<PatientMatch>(
      this.sequelize,
      `SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth::text AS "dateOfBirth", p.gender,
              p.city, p.state,
              lc.id AS "lastCaseId", lc.created_at AS "lastCaseCreatedAt", lc.status AS "lastCaseStatus",
              (lc.status IS NOT NULL AND lc.status <> 'Closed') AS "activeCase",
              coalesce(lc.is_from_old_system, false) AS "lastCaseFromOldSystem",
              (SELECT json_build_object('caseId', oc.id, 'facilityName', af.name, 'divisionName', ad.name)
                 FROM cases oc JOIN case_referring_access a ON a.case_id = oc.id AND a.accepted_at IS NOT NULL AND a.removed_at IS NULL
                 JOIN divisions ad ON ad.id = a.division_id JOIN facilities af ON af.id = ad.facility_id
                WHERE oc.patient_id = p.id AND oc.status <> 'Closed' ORDER BY a.accepted_at DESC LIMIT 1) AS "acceptedIn",
              coalesce((SELECT json_agg(json_build_object('facilityId', v.facility_id, 'facilityName', v.name, 'lastSeenAt', v.last_seen) ORDER BY v.last_seen DESC)
                          FROM (SELECT vc.source_facility_id AS facility_id, vf.name, max(vc.created_at) AS last_seen
                                  FROM cases vc JOIN facilities vf ON vf.id = vc.source_facility_id
                                 WHERE vc.patient_id = p.id AND vc.created_at >= $4::timestamptz AND ($5::int IS NULL OR vc.source_facility_id = $5)
                                 GROUP BY vc.source_facility_id, vf.name) v), '[]') AS "recentVisits"
         FROM patients p
         LEFT JOIN LATERAL (SELECT id, created_at, status, is_from_old_system FROM cases WHERE patient_id = p.id ORDER BY created_at DESC, id DESC LIMIT 1) lc ON true
        WHERE lower(p.last_name) = lower($1) AND lower(p.first_name) = lower($2) AND p.date_of_birth = $3::date
          AND p.merged_into_id IS NULL
        ORDER BY p.id`,
      [capitalizeName(q.lastName), capitalizeName(q.firstName), q.dateOfBirth, monthsBefore(new Date(), RECENT_VISIT_MONTHS).toISOString(), itp ? null : (user.facilityId ?? 0)],
    );
    // A facility's staff learn that another facility accepted the patient, not which one.
    return rows.map((r) => (r.acceptedIn && !itp ? { ...r, acceptedIn: { caseId: r.acceptedIn.caseId, facilityName: null, divisionName: null } } : r));
  }

  /** Source division of a new case: fixed to a facility user's own, chosen by ITP staff and facility admins. */
  private async sourceDivisionFor(user: UserContext, input: CaseCreateInput) {
    const isItp = isItpStaff(user.role);
    const divisionId = user.role === UserType.FacilityUser ? user.divisionId : input.sourceDivisionId;
    const [division] = await select<{
      id: number;
      facility_id: number;
      type: string;
      is_active: boolean;
      facility_active: boolean;
      allow_placement_only_cases: boolean;
      ehr_integrated: boolean;
      request_types: string[] | null;
    }>(
      this.sequelize,
      `SELECT d.id, d.facility_id, d.type, d.is_active, f.is_active AS facility_active, f.allow_placement_only_cases, d.request_types,
              (f.ehr_department_id IS NOT NULL AND f.ehr_department_id <> '') AS ehr_integrated
         FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = $1`,
      [divisionId ?? 0],
    );
    const bad = (field: string, message: string) => invalid([{ field, key: 'invalid', message }]);
    if (!division && isItp && !input.sourceDivisionId) throw invalid(problemsToFieldErrors({ sourceDivisionId: 'required' }));
    if (!division) throw bad('sourceDivisionId', 'Unknown division');
    if (isItp && input.sourceFacilityId !== division.facility_id) throw bad('sourceDivisionId', 'The division does not belong to the facility');
    if (!isItp && division.facility_id !== user.facilityId) throw forbidden();
    if (division.type !== DivisionType.Source || !division.is_active || !division.facility_active)
      throw bad('sourceDivisionId', 'Must be an active source division');
    return division;
  }

  async create(user: UserContext, input: CaseCreateInput): Promise<{ id: number; requestId: number; status: string }> {
    const isItp = isItpStaff(user.role);
    const division = await this.sourceDivisionFor(user, input);
    const problems = caseCreateProblems(input, { isItp, ehrIntegrated: division.ehr_integrated });
    if (Object.keys(problems).length) throw invalid(problemsToFieldErrors(problems));

    // Patient: the chosen one (no other open case), or a new one.
    let patientId = input.patientId ?? null;
    let dateOfBirth: string;
    if (patientId) {
      // FOR SHARE: a merge of this record in flight finishes first, and its mark is then seen here.
      const [p] = await select<{ id: number; dob: string; active_case: number | null; merged_into_id: number | null }>(
        this.sequelize,
        `SELECT p.id, p.date_of_birth::text AS dob, p.merged_into_id,
                (SELECT id FROM cases WHERE patient_id = p.id AND status <> 'Closed' LIMIT 1) AS active_case
           FROM patients p WHERE p.id = $1 FOR SHARE OF p`,
        [patientId],
      );
      if (!p) throw invalid([{ field: 'patientId', key: 'invalid', message: 'Unknown patient' }]);
      if (p.merged_into_id) throw new CodedError(ErrorCode.PatientMerged, { survivorId: p.merged_into_id });
      if (p.active_case) {
        // Accepted by a referring division already: say so (spec 01 §8), rather than only "active case".
        const [accepted] = await select<{ facilityName: string; divisionName: string }>(
          this.sequelize,
          `SELECT af.name AS "facilityName", ad.name AS "divisionName" FROM case_referring_access a
             JOIN divisions ad ON ad.id = a.division_id JOIN facilities af ON af.id = ad.facility_id
            WHERE a.case_id = $1 AND a.accepted_at IS NOT NULL AND a.removed_at IS NULL ORDER BY a.accepted_at DESC LIMIT 1`,
          [p.active_case],
        );
        if (accepted)
          fail(ErrorCode.PatientAlreadyAccepted, isItp ? { caseId: p.active_case, ...accepted } : { caseId: p.active_case });
        fail(ErrorCode.PatientHasActiveCase, { caseId: p.active_case });
      }
      dateOfBirth = p.dob;
      if (input.patient) await this.updatePatientFields(patientId, input.patient);
    } else {
      const p = input.patient!;
      dateOfBirth = p.dateOfBirth;
      patientId = await this.insertPatient(p, division.facility_id);
    }

    // Request type and provider (spec 01 §5 "Request type options", provider list).
    const allowedTypes = await this.requestTypesFor(user, {
      allowPlacementOnly: division.allow_placement_only_cases,
      divisionRequestTypes: division.request_types,
      patientId,
    });
    if (!allowedTypes.includes(input.requestType))
      throw invalid([{ field: 'requestType', key: 'notAvailable', message: 'This request type is not available for this case' }]);
    const providerId = input.requestType === 'PlacementOnly' ? null : (input.evaluationProviderId ?? null);
    if (providerId) await this.assertProviderFor(providerId, division.id, dateOfBirth);

    const status = statusAfterRequestCreated(CaseStatus.PendingAssignment, input.requestType, !!providerId);
    const actor = { id: user.id, name: `${user.firstName} ${user.lastName}`, userType: user.role };
    const isFacilityAuthor = user.organizationType === 'Facility';
    const note = input.requestNote ?? null;
    const { id: caseId, requestId } = await this.writer
      .createCase({
        patientId,
        status,
        sourceFacilityId: division.facility_id,
        sourceDivisionId: division.id,
        ...sourceDetails(input),
        uninsured: input.uninsured ?? false,
        patientEpicId: input.patientEpicId ?? null,
        encounterIdentifier: input.encounterIdentifier ?? null,
        request: {
          type: input.requestType,
          status: initialRequestStatus(input.requestType, !!providerId),
          evaluationProviderId: providerId,
          note,
          facilityNote: isFacilityAuthor ? note : null,
          itpNote: isFacilityAuthor ? null : note,
        },
        actor,
      })
      .catch((err) => {
        // Two creations for one patient at once: the partial unique index lets one through.
        if (String(err?.constraint ?? err?.original?.constraint ?? err?.parent?.constraint ?? '').includes('cases_one_active_per_patient'))
          fail(ErrorCode.PatientHasActiveCase);
        throw err;
      });
    if (!input.uninsured) {
      let position = 0;
      const [insured] = input.insurances?.length
        ? await select<{ firstName: string; lastName: string; phone: string | null; dateOfBirth: string }>(
            this.sequelize,
            'SELECT first_name AS "firstName", last_name AS "lastName", phone, date_of_birth::text AS "dateOfBirth" FROM patients WHERE id = $1',
            [patientId],
          )
        : [];
      for (const ins of input.insurances ?? []) {
        const party = responsiblePartyForRelation(ins.relationToInsured, insured, ins.responsibleParty);
        await select(
          this.sequelize,
          `INSERT INTO patient_insurances (case_id, patient_id, payer_id, insurance_id, group_id, relation_to_insured,
                                           responsible_party, verified, patient_phone, position)
           SELECT $1, $2, id, $4, $5, $6, $7, $8, $9, $10 FROM payers WHERE id = $3 AND is_active`,
          [
            caseId,
            patientId,
            ins.payerId,
            ins.insuranceId,
            ins.groupId ?? null,
            ins.relationToInsured ?? null,
            party ? JSON.stringify(party) : null,
            ins.verified ?? true,
            ins.patientPhone ?? null,
            position++,
          ],
        ).then(async () => {
          const [n] = await select<{ n: number }>(this.sequelize, 'SELECT count(*)::int AS n FROM patient_insurances WHERE case_id = $1', [caseId]);
          if (n.n !== position) throw invalid([{ field: `insurances.${position - 1}.payerId`, key: 'invalid', message: 'Unknown or inactive payer' }]);
        });
      }
    }
    await select(this.sequelize, 'INSERT INTO medical_information (case_id) VALUES ($1)', [caseId]);
    auditValues({ caseId, patientId, requestId });
    return { id: caseId, requestId, status };
  }

  private async insertPatient(p: PatientInput, facilityId: number): Promise<number> {
    const [row] = await select<{ id: number }>(
      this.sequelize,
      `INSERT INTO patients (first_name, last_name, date_of_birth, gender, phone, is_veteran, homeless, street_line, apartment_number,
                             city, state, county, zip_code, ssn, athena_patient_id, patient_epic_id, encounter_identifier,
                             outpatient_provider_name, outpatient_provider_phone, created_in_facility_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id`,
      [...patientValues(p), facilityId],
    );
    return row.id;
  }

  private async updatePatientFields(patientId: number, p: PatientInput) {
    await select(
      this.sequelize,
      `UPDATE patients SET first_name = $2, last_name = $3, date_of_birth = $4, gender = $5, phone = $6, is_veteran = $7, homeless = $8,
              street_line = $9, apartment_number = $10, city = $11, state = $12, county = $13, zip_code = $14, ssn = $15,
              athena_patient_id = $16, patient_epic_id = $17, encounter_identifier = $18, outpatient_provider_name = $19,
              outpatient_provider_phone = $20, updated_at = now()
        WHERE id = $1`,
      [patientId, ...patientValues(p)],
    );
  }

  /**
   * Request types this user may ask for (spec 01 §5 "Request type options"): the facility's
   * placement-only choice, the source division's types and the patient's completed evaluations.
   */
  async requestTypesFor(
    user: UserContext,
    o: { allowPlacementOnly: boolean; divisionRequestTypes: string[] | null; patientId: number | null },
  ): Promise<RequestType[]> {
    const completed = o.patientId
      ? await select<{ type: RequestType }>(
          this.sequelize,
          `SELECT DISTINCT r.type FROM requests r JOIN cases c ON c.id = r.case_id WHERE c.patient_id = $1 AND r.status = 'Completed'`,
          [o.patientId],
        )
      : [];
    return availableRequestTypes({
      userType: user.role,
      allowPlacementOnly: o.allowPlacementOnly,
      completedRequestTypes: completed.map((r) => r.type),
      divisionRequestTypes: o.divisionRequestTypes,
    });
  }

  /** Request types this user may create on an existing case. */
  async availableTypesFor(user: UserContext, caseId: number): Promise<RequestType[]> {
    const [c] = await select<{ allow: boolean; types: string[] | null; patient_id: number }>(
      this.sequelize,
      `SELECT f.allow_placement_only_cases AS allow, d.request_types AS types, c.patient_id
         FROM cases c JOIN facilities f ON f.id = c.source_facility_id JOIN divisions d ON d.id = c.source_division_id
        WHERE c.id = $1`,
      [caseId],
    );
    return this.requestTypesFor(user, { allowPlacementOnly: c.allow, divisionRequestTypes: c.types, patientId: c.patient_id });
  }

  /** The provider must be an active credentialed provider of the division accepting the patient's age. */
  private async assertProviderFor(providerId: number, divisionId: number, dateOfBirth: string) {
    const providers = await this.providersFor(divisionId, dateOfBirth);
    if (!providers.some((p) => p.id === providerId))
      throw invalid([{ field: 'evaluationProviderId', key: 'invalid', message: 'The provider is not credentialed for this division and patient' }]);
  }

  /** Active credentialed providers of a division accepting a patient of this date of birth (spec 01 §5). */
  async providersFor(divisionId: number, dateOfBirth: string | null) {
    const rows = await select<{ id: number; firstName: string; lastName: string; avatar: string | null; biography: string | null; acceptedPatients: AcceptedAges }>(
      this.sequelize,
      `SELECT u.id, u.first_name AS "firstName", u.last_name AS "lastName", u.avatar,
              u.provider_info->>'biography' AS biography, cp.accepted_patients AS "acceptedPatients"
         FROM credentialed_providers cp
         JOIN credentialed_provider_divisions cpd ON cpd.credentialed_provider_id = cp.id AND cpd.division_id = $1
         JOIN users u ON u.id = cp.provider_id AND u.is_active AND u.user_type = 'IntegratedTelehealthPartners_Provider'
        ORDER BY lower(u.last_name), lower(u.first_name), u.id`,
      [divisionId],
    );
    const age = dateOfBirth ? ageInYears(dateOfBirth) : null;
    return rows.filter((r) => acceptsAge(r.acceptedPatients, age)).map(({ acceptedPatients: _omit, ...r }) => r);
  }

  // -------------------------------------------------------------------------------------------
  // Read model
  // -------------------------------------------------------------------------------------------

  /** GET /api/cases/{id}: the case page's payload (spec 01 §3 Case), for a user in scope. */
  async details(user: UserContext, caseId: number) {
    // One statement: the scope check, the case and its requests (the page's hottest read).
    const bind: unknown[] = [caseId];
    const scope = caseScopeSql(user, bind);
    const [row] = await preparedRead<Record<string, any>>(
      this.sequelize,
      `SELECT (${scope}) AS visible,
              coalesce((SELECT json_agg(x ORDER BY x."createdAt" DESC, x.id DESC) FROM (SELECT ${REQUEST_COLUMNS} ${REQUEST_FROM}) x), '[]') AS requests,
              c.id, c.status, c.status_to_resume AS "statusToResume", c.version, c.created_at AS "createdAt",
              c.status_changed_at AS "statusChangedAt",
              c.attending_provider AS "attendingProvider", c.rn_caring_for_patient AS "rnCaringForPatient",
              c.contact_phone_number AS "contactPhoneNumber", c.notification_sending_method AS "notificationSendingMethod",
              c.is_involuntary AS "isInvoluntary", c.include_out_of_state_facilities AS "includeOutOfStateFacilities",
              c.is_from_old_system AS "isFromOldSystem", c.main_recommendation AS "mainRecommendation", c.criteria,
              c.recommendation_note AS "recommendationNote", c.uninsured, c.patient_epic_id AS "patientEpicId",
              c.encounter_identifier_id AS "encounterIdentifierId", ra.granted_at AS "grantedAccessCreatedAt",
              ra.accepted_at AS "patientAcceptedCreatedAt", c.closed_at AS "closedAt",
              c.locating_services_seconds AS "locatingServicesSeconds",
              extract(epoch FROM (coalesce(c.closed_at, now()) - c.created_at))::int AS "timeElapsedSeconds",
              CASE WHEN c.outcome_type IS NULL AND c.status <> 'Closed' THEN NULL ELSE json_build_object(
                'type', c.outcome_type, 'note', c.outcome_note,
                -- The patient has an open case now (another one once this one is closed): reopening is refused.
                'isActiveCase', EXISTS (SELECT 1 FROM cases n WHERE n.patient_id = c.patient_id AND n.status <> 'Closed'),
                'referringFacility', CASE WHEN od.id IS NULL THEN NULL ELSE json_build_object('divisionId', od.id, 'divisionName', od.name, 'facilityName', ofa.name) END
              ) END AS outcome,
              json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth,
                'gender', p.gender, 'phone', p.phone, 'isVeteran', p.is_veteran, 'homeless', p.homeless,
                'ssn', CASE WHEN p.is_veteran THEN p.ssn END,
                'address', json_build_object('streetLine', p.street_line, 'apartmentNumber', p.apartment_number, 'city', p.city,
                   'state', p.state, 'county', p.county, 'zipCode', p.zip_code),
                'outpatientProviderName', p.outpatient_provider_name, 'outpatientProviderPhone', p.outpatient_provider_phone,
                'athenaPatientId', p.athena_patient_id, 'patientEpicId', p.patient_epic_id,
                'hasNewCase', EXISTS (SELECT 1 FROM cases n WHERE n.patient_id = p.id AND n.created_at > c.created_at),
                'activeCaseId', (SELECT n.id FROM cases n WHERE n.patient_id = p.id AND n.status <> 'Closed' AND n.id <> c.id LIMIT 1)
              ) AS patient,
              json_build_object('id', f.id, 'name', f.name, 'description', f.description,
                'address', json_build_object('streetLine', f.street_line, 'city', f.city, 'state', f.state, 'zipCode', f.zip_code),
                'contacts', f.contacts, 'populateOutOfStateFacilities', f.populate_out_of_state_facilities,
                'allowPlacementOnlyCases', f.allow_placement_only_cases,
                'ehrIntegrated', (f.ehr_department_id IS NOT NULL AND f.ehr_department_id <> '')) AS "sourceFacility",
              json_build_object('id', d.id, 'name', d.name, 'description', d.description, 'contacts', d.contacts,
                'documentInEHR', coalesce(d.document_in_ehr, false), 'outcomeRequired', coalesce(d.outcome_required, true),
                'showBillingCode', coalesce(d.show_billing_code, false)) AS "sourceDivision",
              coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY lower(t.name))
                          FROM case_tags ct JOIN patient_tags t ON t.id = ct.tag_id WHERE ct.case_id = c.id), '[]') AS tags,
              (SELECT er_line FROM itp_organization ORDER BY id LIMIT 1) AS "erLine",
              -- The patient's case before this one (spec 01 §3 Case lastCase).
              (SELECT json_build_object('id', lc.id, 'createdAt', lc.created_at, 'status', lc.status, 'closedAt', lc.closed_at)
                 FROM cases lc WHERE lc.patient_id = c.patient_id AND (lc.created_at, lc.id) < (c.created_at, c.id)
                ORDER BY lc.created_at DESC, lc.id DESC LIMIT 1) AS "lastCase",
              -- The providers of the case's requests, once each.
              coalesce((SELECT json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name) ORDER BY lower(u.last_name), lower(u.first_name), u.id)
                          FROM users u WHERE u.id IN (SELECT evaluation_provider_id FROM requests WHERE case_id = c.id)), '[]') AS "evaluationProviders",
              -- Undo takes back the last manual change (the same test as the workflow's undo command).
              coalesce((SELECT a.kind = 'manual' AND a.status = c.status FROM case_activities a
                         WHERE a.case_id = c.id AND a.undone_at IS NULL AND a.kind NOT IN (${UNDO_SKIPS_SQL})
                         ORDER BY a.id DESC LIMIT 1), false)
                AND c.status <> 'Closed'
                AND (SELECT count(*) FROM case_activities a WHERE a.case_id = c.id AND a.undone_at IS NULL AND a.kind NOT IN (${UNDO_SKIPS_SQL})) > 1 AS "canUndo"
         FROM cases c
         JOIN patients p ON p.id = c.patient_id
         JOIN facilities f ON f.id = c.source_facility_id
         JOIN divisions d ON d.id = c.source_division_id
         LEFT JOIN divisions od ON od.id = c.outcome_referring_division_id
         LEFT JOIN facilities ofa ON ofa.id = od.facility_id
         -- When a referring division was first granted access, and first accepted the patient.
         CROSS JOIN LATERAL (SELECT min(a.granted_at) AS granted_at, min(a.accepted_at) FILTER (WHERE a.removed_at IS NULL) AS accepted_at
                               FROM case_referring_access a WHERE a.case_id = c.id) ra
        WHERE c.id = $1`,
      bind,
    );
    if (!row) throw notFound();
    if (!row.visible) throw forbidden();
    const { visible: _visible, requests, ...caseRow } = row as { visible: boolean; requests: Array<Record<string, any> & { status: string }> } & Record<string, any>;
    const allRequestsCancelled = requests.every((r) => r.status === 'Canceled');
    const audience = statusAudience(user);
    // Insurances and their payers for those who may read them (spec 01 §6 "Insurance display").
    const insurances = abilityFor(user).can('read', 'CaseInsurance') ? await insurancesOfCase(this.sequelize, caseId) : [];
    const payers = [...new Map(insurances.map((i) => [i.payer.id, i.payer])).values()];
    const { patient, lastCase } = caseRow as { patient: Record<string, any>; lastCase: Record<string, any> | null };
    return {
      ...caseRow,
      patient: { ...patient, referenceNumber: patientReference(patient.id) },
      lastCase: lastCase ? { ...lastCase, referenceNumber: caseReference(lastCase.id), activeCase: lastCase.status !== 'Closed' } : null,
      tagNames: (caseRow.tags as Array<{ name: string }>).map((t) => t.name),
      insurances,
      payers,
      referenceNumber: caseRow.id,
      statusLabel: caseStatusLabel(caseRow.status, audience),
      statusGroup: caseStatusGroupOf(caseRow.status),
      requests,
      activeRequest: requests.find((r) => isActiveRequestStatus(r.status)) ?? null,
      allowedStatuses: allowedTargets(caseRow.status, { allRequestsCancelled }),
    };
  }

  /** Requests of a case, newest first, with their provider (spec 01 §3 Request). */
  async requests(caseId: number) {
    return preparedRead<Record<string, any> & { status: string }>(this.sequelize, `SELECT ${REQUEST_COLUMNS} ${REQUEST_FROM} ORDER BY r.created_at DESC, r.id DESC`, [caseId]);
  }

  /** Referring divisions that accepted the patient (preselected in the close dialog when only one). */
  async acceptedFacilities(caseId: number) {
    return select(
      this.sequelize,
      `SELECT d.id AS "divisionId", d.name AS "divisionName", f.id AS "facilityId", f.name AS "facilityName", a.accepted_at AS "acceptedAt"
         FROM case_referring_access a JOIN divisions d ON d.id = a.division_id JOIN facilities f ON f.id = d.facility_id
        WHERE a.case_id = $1 AND a.accepted_at IS NOT NULL AND a.removed_at IS NULL
        ORDER BY a.accepted_at, d.id`,
      [caseId],
    );
  }

  /**
   * Inpatient facilities nearby (spec 01 §2 modal): active MentalHealthInpatient divisions by
   * straight-line distance in miles from the case's source facility (haversine), nearest first.
   */
  async inpatientDivisionsNear(caseId: number, limit = 20) {
    return select(
      this.sequelize,
      `SELECT d.id AS "divisionId", d.name AS "divisionName", f.id AS "facilityId", f.name AS "facilityName", f.city, f.state,
              round((3958.8 * 2 * asin(sqrt(power(sin(radians(f.latitude - s.latitude) / 2), 2)
                + cos(radians(s.latitude)) * cos(radians(f.latitude)) * power(sin(radians(f.longitude - s.longitude) / 2), 2))))::numeric, 1)::float AS "proximityMiles"
         FROM cases c JOIN facilities s ON s.id = c.source_facility_id
         JOIN divisions d ON d.type = 'Referring' AND d.referring_type = 'MentalHealthInpatient' AND d.is_active
         JOIN facilities f ON f.id = d.facility_id AND f.is_active
        WHERE c.id = $1
        ORDER BY "proximityMiles", d.id
        LIMIT $2`,
      [caseId, limit],
    );
  }

  /** GET /{id}/reopen-status: where a reopened case would go (spec 01 §4 Reopen). */
  async reopenStatus(caseId: number) {
    const [row] = await select<{ status: string | null; active: boolean; other: number | null }>(
      this.sequelize,
      `SELECT ${REOPEN_INPUTS_SQL('c.id', '$2')},
              (SELECT o.id FROM cases o WHERE o.patient_id = c.patient_id AND o.id <> c.id AND o.status <> 'Closed' LIMIT 1) AS other
         FROM cases c WHERE c.id = $1`,
      [caseId, ACTIVE_REQUEST_STATUSES],
    );
    return { statusToReopen: statusToReopen(row.status, row.active), activeCaseId: row.other };
  }

  /** Case activity rows (spec 01 §3 Case activity info), oldest first. */
  async activity(caseId: number) {
    return select(
      this.sequelize,
      `SELECT a.id, a.status, a.status_group AS "statusGroup", a.kind, a.note, a.initiator_id AS "initiatorId",
              a.initiator_name AS "initiatorName", a.started_at AS "startedAt", a.ended_at AS "endedAt",
              a.main_recommendation AS "mainRecommendation", a.criteria, a.recommendation_note AS "recommendationNote",
              a.undone_at IS NOT NULL AS undone,
              extract(epoch FROM (coalesce(a.ended_at, now()) - a.started_at))::int AS "durationSeconds"
         FROM case_activities a WHERE a.case_id = $1 ORDER BY a.started_at, a.id`,
      [caseId],
    );
  }

  /** The activity report: total time and per status group its activities and total (spec 01 §3). */
  async activityReport(caseId: number) {
    const rows = (await this.activity(caseId)) as Array<{ statusGroup: string; durationSeconds: number; undone: boolean } & Record<string, unknown>>;
    const groups = new Map<string, { group: string; totalSeconds: number; activities: typeof rows }>();
    for (const r of rows) {
      if (r.undone) continue;
      const g = groups.get(r.statusGroup) ?? { group: r.statusGroup, totalSeconds: 0, activities: [] };
      g.activities.push(r);
      if (r.statusGroup !== 'Closed') g.totalSeconds += r.durationSeconds;
      groups.set(r.statusGroup, g);
    }
    const [c] = await select<{ total: number }>(
      this.sequelize,
      'SELECT extract(epoch FROM (coalesce(closed_at, now()) - created_at))::int AS total FROM cases WHERE id = $1',
      [caseId],
    );
    return { caseId, totalSeconds: c.total, groups: [...groups.values()] };
  }
}

/** A request as the case page shows it (spec 01 §3 Request); REQUEST_FROM binds the case id as $1. */
const REQUEST_COLUMNS = `r.id, r.case_id AS "caseId", r.type, r.status, r.created_at AS "createdAt", r.note,
  r.evaluation_provider_id AS "evaluationProviderId", r.division_id AS "divisionId",
  r.evaluation_started_at IS NOT NULL AS "evaluationStarted", r.evaluation_started_at AS "evaluationStartedAt",
  r.completed_at AS "completedAt", r.canceled_at AS "canceledAt", r.reason,
  EXISTS (SELECT 1 FROM evaluations e WHERE e.request_id = r.id) AS "hasEvaluation",
  CASE WHEN r.facility_note IS NULL THEN NULL ELSE json_build_object('authorName', r.facility_note_author, 'value', r.facility_note) END AS "facilityNote",
  CASE WHEN r.itp_note IS NULL THEN NULL ELSE json_build_object('authorName', r.itp_note_author, 'value', r.itp_note) END AS "itpNote",
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name,
    'avatar', u.avatar, 'biography', u.provider_info->>'biography', 'type', u.provider_info->>'providerType') END AS "evaluationProvider",
  json_build_object('id', cu.id, 'firstName', cu.first_name, 'lastName', cu.last_name) AS "createdBy",
  (SELECT json_build_object('isProviderJoined', m.provider_joined_at IS NOT NULL, 'isPatientJoined', m.patient_joined_at IS NOT NULL,
          'ended', m.ended_at IS NOT NULL, 'createdAt', m.created_at, 'scheduledAt', m.scheduled_at)
     FROM online_meetings m WHERE m.request_id = r.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS "onlineMeeting"`;
const REQUEST_FROM = `FROM requests r LEFT JOIN users u ON u.id = r.evaluation_provider_id LEFT JOIN users cu ON cu.id = r.created_by WHERE r.case_id = $1`;

function patientValues(p: PatientInput): unknown[] {
  return [
    capitalizeName(p.firstName),
    capitalizeName(p.lastName),
    p.dateOfBirth,
    p.gender,
    p.phone ?? null,
    p.isVeteran ?? false,
    p.homeless ?? false,
    p.address.streetLine,
    p.address.apartmentNumber ?? null,
    p.address.city,
    p.address.state,
    p.address.county,
    p.address.zipCode,
    p.isVeteran ? (p.ssn ?? null) : null,
    p.athenaPatientId ?? null,
    p.patientEpicId ?? null,
    p.encounterIdentifier ?? null,
    p.outpatientProviderName ?? null,
    p.outpatientProviderPhone ?? null,
  ];
}

/** The source details of a case as entered on the new-case form and the source-details dialog (spec 01 §3 Case). */
export function sourceDetails(input: Pick<CaseCreateInput, 'attendingProvider' | 'rnCaringForPatient' | 'contactPhoneNumber' | 'notificationSendingMethod' | 'isInvoluntary'>) {
  return {
    attendingProvider: input.attendingProvider ?? null,
    rnCaringForPatient: input.rnCaringForPatient ?? null,
    contactPhoneNumber: input.contactPhoneNumber,
    notificationSendingMethod: input.notificationSendingMethod,
    isInvoluntary: input.isInvoluntary ?? false,
  };
}

export const caseNotFound = () => new CodedError(ErrorCode.NotFound);
