import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import type { FastifyRequest } from 'fastify';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, ehrDifferences, isItpStaff, type EhrPeriodicInformation, type UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { ScopedCase, SourceSideCase, type CaseRef } from '../auth/scoped-case';
import { AuditAfterCommand } from '../audit/audit.interceptor';
import { auditValues } from '../common/request-context';
import { CaseCommandsHandler } from '../cases/case-commands.handler';
import { inTransaction } from '../db/sql';
import { readEntry } from '../audit/audited-read';
import { AuditService } from '../audit/audit.service';
import { forbidden, invalid } from '../common/coded-error';
import { queryValue } from '../common/list-query';
import { parseId } from '../facilities/list-params';
import { Route } from '../common/route';
import { select } from '../reference/reference-sql';
import { EhrConnections, ehrFailure } from './ehr-connections.service';
import { EHR_PORT, type EhrConnection, type EhrEncounter, type EhrPatient, type EhrPort } from './ehr.port';

const PATIENT = {
  type: 'object',
  properties: {
    fhirId: { type: 'string' },
    patientId: { type: 'string' },
    firstName: { type: 'string', nullable: true },
    lastName: { type: 'string', nullable: true },
    dateOfBirth: { type: 'string', nullable: true, description: 'yyyy-MM-dd' },
    gender: { type: 'string', nullable: true },
    phone: { type: 'string', nullable: true },
    address: { type: 'object', nullable: true },
    insurances: { type: 'array', items: { type: 'object' }, description: 'only with needInsurances=true' },
  },
};

/** A blank id, or the placeholders a form sends for one (`null`, `undefined`, `-`). */
const blank = (v: unknown) => v === undefined || v === null || ['', 'null', 'undefined', '-'].includes(String(v).trim());

/**
 * The EHR look-ups of case creation (spec 01 §5 "For EHR-integrated divisions, patient id and
 * encounter id are required … looked up on blur; the encounter id is checked to belong to that
 * patient", §7 search-patient-in-ehr / validate-patientencounter-identifierid, §8 "EHR lookups").
 * Gated like the other case-creation look-ups: case creators (ITP staff, source-side facility
 * users) — facility staff only for divisions of their own facility. Each look-up reads a
 * patient's record, so each is audited as a read.
 */
@ApiTags('cases')
@Controller('api/cases')
export class EhrLookupsController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly connections: EhrConnections,
    @Inject(EHR_PORT) private readonly ehr: EhrPort,
    private readonly audit: AuditService,
  ) {}

  /** The division's connection, after checking the caller may create cases there. */
  private async connectionFor(user: UserContext, divisionId: number): Promise<EhrConnection> {
    const [d] = await select<{ facility_id: number }>(this.sequelize, `SELECT facility_id FROM divisions WHERE id = $1 AND type = 'Source'`, [divisionId]);
    if (!d) throw invalid([{ field: 'divisionId', key: 'invalid', message: 'Unknown source division' }]);
    if (!isItpStaff(user.role) && d.facility_id !== user.facilityId) throw forbidden();
    const conn = await this.connections.forDivision(divisionId);
    if (!conn) throw new CodedError(ErrorCode.DivisionNotEhrIntegrated, { divisionId });
    return conn;
  }

  private async find(conn: EhrConnection, patientId: string, withInsurances: boolean): Promise<EhrPatient> {
    let patient: EhrPatient | null;
    try {
      patient = await this.ehr.findPatient(conn, patientId, { withInsurances });
    } catch (err) {
      throw ehrFailure(err);
    }
    if (!patient) throw new CodedError(ErrorCode.EhrPatientNotFound, { patientId });
    return patient;
  }

  private async audited<T>(req: FastifyRequest, user: UserContext, action: string, values: Record<string, unknown>, facilityId: number | undefined, run: () => Promise<T>) {
    const base = readEntry(action, req, user);
    try {
      const result = await run();
      await this.audit.record({ ...base, success: true, statusCode: 200, values, facilityId });
      return result;
    } catch (err) {
      const status = err instanceof CodedError ? err.status : 500;
      await this.audit.record({ ...base, success: false, statusCode: status, values, facilityId }).catch(() => undefined);
      throw err;
    }
  }

  @Get('search-patient-in-ehr')
  @CheckAbility('create', 'Case')
  @ApiQuery({ name: 'divisionId', required: true, description: 'the source division of the new case' })
  @ApiQuery({ name: 'patientId', required: true, description: 'Epic patient id or MRN' })
  @ApiQuery({ name: 'needInsurances', required: false, description: 'true: also the coverages (payer, plan, member id)' })
  @ApiOkResponse({ description: 'The patient as the EHR knows it', schema: PATIENT })
  @ApiBadRequestResponse({ description: 'INV: unknown division; INV.EHR.PATIENT.ID.REQUIRED: no patient id' })
  @ApiNotFoundResponse({ description: 'INV.EHR.PATIENT.NOT.FOUND: the EHR has no such patient' })
  @ApiConflictResponse({ description: 'INV.DIVISION.NOT.EHR.INTEGRATED; INV.EHR.KEY.REFUSED / INV.EHR.UNAVAILABLE when the EHR fails' })
  async searchPatient(
    @CurrentUser() user: UserContext,
    @Req() req: FastifyRequest,
    @Query('divisionId') rawDivisionId: unknown,
    @Query('patientId') rawPatientId: unknown,
    @Query('needInsurances') rawNeedInsurances: unknown,
  ): Promise<EhrPatient> {
    const divisionRaw = queryValue(rawDivisionId);
    if (blank(divisionRaw)) throw invalid([{ field: 'divisionId', key: 'required', message: 'This field is required' }]);
    const divisionId = parseId(divisionRaw);
    const patientId = queryValue(rawPatientId);
    const conn = await this.connectionFor(user, divisionId);
    if (blank(patientId)) throw new CodedError(ErrorCode.EhrPatientIdRequired);
    const id = String(patientId).trim();
    return this.audited(req, user, 'Case.SearchPatientInEhr', { divisionId, patientId: id }, conn.facilityId, () =>
      this.find(conn, id, String(queryValue(rawNeedInsurances)) === 'true'),
    );
  }

  @Get('validate-patientencounter-identifierid/:divisionId/:patientId/:encounterId')
  @CheckAbility('create', 'Case')
  @ApiParam({ name: 'patientId', type: String, description: 'Epic patient id or MRN ("null" when none was entered yet)' })
  @ApiParam({ name: 'encounterId', type: String, description: 'the EHR encounter id' })
  @ApiParam({ name: 'divisionId', type: Number })
  @ApiOkResponse({ description: 'The encounter belongs to the patient', schema: { type: 'object', properties: { valid: { type: 'boolean' }, encounter: { type: 'object' } } } })
  @ApiBadRequestResponse({ description: 'INV.EHR.PATIENT.ID.REQUIRED: an encounter id entered before a patient id' })
  @ApiNotFoundResponse({ description: 'INV.EHR.PATIENT.NOT.FOUND; INV.EHR.ENCOUNTER.NOT.FOUND' })
  @ApiConflictResponse({ description: 'INV.EHR.ENCOUNTER.OTHER.PATIENT: the encounter is another patient\'s; INV.DIVISION.NOT.EHR.INTEGRATED' })
  async validateEncounter(
    @CurrentUser() user: UserContext,
    @Req() req: FastifyRequest,
    @Param('divisionId') rawDivisionId: string,
    @Param('patientId') rawPatientId: string,
    @Param('encounterId') rawEncounterId: string,
  ): Promise<{ valid: true; encounter: EhrEncounter }> {
    const divisionId = parseId(rawDivisionId);
    const conn = await this.connectionFor(user, divisionId);
    if (blank(rawPatientId)) throw new CodedError(ErrorCode.EhrPatientIdRequired);
    if (blank(rawEncounterId)) throw invalid([{ field: 'encounterId', key: 'required', message: 'Patient Encounter ID is required' }]);
    const patientId = rawPatientId.trim();
    const encounterId = rawEncounterId.trim();
    return this.audited(req, user, 'Case.ValidatePatientEncounter', { divisionId, patientId, encounterId }, conn.facilityId, async () => {
      const patient = await this.find(conn, patientId, false);
      let encounter: EhrEncounter | null;
      try {
        encounter = await this.ehr.readEncounter(conn, encounterId);
      } catch (err) {
        throw ehrFailure(err);
      }
      if (!encounter) throw new CodedError(ErrorCode.EhrEncounterNotFound, { encounterId });
      if (encounter.patientFhirId !== patient.fhirId) throw new CodedError(ErrorCode.EhrEncounterOtherPatient, { encounterId, patientId });
      return { valid: true as const, encounter };
    });
  }
}

/**
 * The case page's periodic look at the EHR (spec 01 §7 patient-periodic-information-in-ehr): what
 * the EHR knows now of the case's patient and encounter, and where the platform's patient differs
 * (a name corrected at registration, a new phone). Whoever may read the case may ask; each answer is
 * a read of the patient's record, audited.
 */
@ApiTags('cases')
@Controller('api/cases')
export class EhrPeriodicInformationController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly connections: EhrConnections,
    @Inject(EHR_PORT) private readonly ehr: EhrPort,
    private readonly audit: AuditService,
  ) {}

  @Get('patient-periodic-information-in-ehr/:caseId/:encounterId')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'caseId', type: Number })
  @ApiParam({ name: 'encounterId', type: String, description: "the case's EHR encounter id" })
  @ApiOkResponse({ description: 'The EHR patient, the encounter (status, start, belongs to the patient) and the fields the platform has otherwise' })
  @ApiNotFoundResponse({ description: 'NTFND: no such case; INV.EHR.PATIENT.NOT.FOUND' })
  @ApiConflictResponse({ description: 'INV.DIVISION.NOT.EHR.INTEGRATED: the source facility has no EHR connection; INV.EHR.PATIENT.ID.REQUIRED: the case has no EHR patient id' })
  async periodic(
    @CurrentUser() user: UserContext,
    @Req() req: FastifyRequest,
    @ScopedCase('caseId') c: CaseRef,
    @Param('encounterId') rawEncounterId: string,
  ): Promise<EhrPeriodicInformation> {
    const conn = await this.connections.forFacility(c.sourceFacilityId);
    if (!conn) throw new CodedError(ErrorCode.DivisionNotEhrIntegrated, { divisionId: c.sourceDivisionId });
    const [p] = await select<{ patientEpicId: string | null; firstName: string | null; lastName: string | null; dateOfBirth: string | null; phone: string | null }>(
      this.sequelize,
      `SELECT c.patient_epic_id AS "patientEpicId", p.first_name AS "firstName", p.last_name AS "lastName",
              to_char(p.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", p.phone
         FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1`,
      [c.id],
    );
    if (blank(p?.patientEpicId)) throw new CodedError(ErrorCode.EhrPatientIdRequired);
    if (blank(rawEncounterId)) throw invalid([{ field: 'encounterId', key: 'required', message: 'Patient Encounter ID is required' }]);
    const encounterId = rawEncounterId.trim();
    const base = readEntry('Case.PatientPeriodicInformationInEhr', req, user);
    const values = { caseId: c.id, patientId: p.patientEpicId, encounterId };
    try {
      const patient = await this.ehr.findPatient(conn, p.patientEpicId!);
      if (!patient) throw new CodedError(ErrorCode.EhrPatientNotFound, { patientId: p.patientEpicId });
      const encounter = await this.ehr.readEncounter(conn, encounterId);
      await this.audit.record({ ...base, success: true, statusCode: 200, values, facilityId: conn.facilityId });
      const { fhirId, ...shown } = patient;
      return {
        patient: shown,
        encounter: encounter && { id: encounterId, status: encounter.status, start: encounter.start, belongsToPatient: encounter.patientFhirId === fhirId },
        differences: ehrDifferences(p, patient),
        checkedAt: new Date().toISOString(),
      };
    } catch (err) {
      const failure = err instanceof CodedError ? err : ehrFailure(err);
      const status = failure instanceof CodedError ? failure.status : 500;
      await this.audit.record({ ...base, success: false, statusCode: status, values, facilityId: conn.facilityId }).catch(() => undefined);
      throw failure;
    }
  }
}

/**
 * A case's EHR encounter given or corrected after creation (spec 01 §7
 * add-encounteridentifiertocases-in-ehr): the EHR must know the encounter, and it must be the
 * case's patient's; then the case keeps it (the case writer's details), and the uploads that follow
 * file on it. A PUT: the spec lists a GET, but a GET must not change a case.
 */
@ApiTags('cases')
@Controller('api/cases')
export class EhrEncounterController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly connections: EhrConnections,
    @Inject(EHR_PORT) private readonly ehr: EhrPort,
    private readonly writer: CaseCommandsHandler,
  ) {}

  @Route('PUT', 'add-encounteridentifiertocases-in-ehr/:caseId/:encounterId', 'update', 'Case', 'Case.AddEncounterIdentifier')
  // The EHR is asked first, outside any transaction; the write has its own, and the entry follows.
  @AuditAfterCommand()
  @ApiParam({ name: 'encounterId', type: String, description: 'the EHR encounter id' })
  @ApiOkResponse({ description: 'The case keeps the encounter: { caseId, encounterIdentifier }' })
  @ApiNotFoundResponse({ description: 'NTFND: no such case; INV.EHR.PATIENT.NOT.FOUND; INV.EHR.ENCOUNTER.NOT.FOUND' })
  @ApiConflictResponse({ description: "INV.EHR.ENCOUNTER.OTHER.PATIENT: another patient's encounter; INV.CASE.IS.CLOSED; INV.DIVISION.NOT.EHR.INTEGRATED" })
  async addEncounter(@CurrentUser() user: UserContext, @SourceSideCase('caseId') c: CaseRef, @Param('encounterId') rawEncounterId: string) {
    if (c.status === 'Closed') throw new CodedError(ErrorCode.CaseIsClosed);
    const conn = await this.connections.forFacility(c.sourceFacilityId);
    if (!conn) throw new CodedError(ErrorCode.DivisionNotEhrIntegrated, { divisionId: c.sourceDivisionId });
    const [row] = await select<{ patientEpicId: string | null }>(this.sequelize, 'SELECT patient_epic_id AS "patientEpicId" FROM cases WHERE id = $1', [c.id]);
    if (blank(row?.patientEpicId)) throw new CodedError(ErrorCode.EhrPatientIdRequired);
    if (blank(rawEncounterId) || rawEncounterId.trim().length > 255)
      throw invalid([{ field: 'encounterId', key: 'required', message: 'Patient Encounter ID is required' }]);
    const encounterId = rawEncounterId.trim();
    let patient: EhrPatient | null;
    let encounter: EhrEncounter | null;
    try {
      patient = await this.ehr.findPatient(conn, row.patientEpicId!);
      encounter = patient && (await this.ehr.readEncounter(conn, encounterId));
    } catch (err) {
      throw ehrFailure(err);
    }
    if (!patient) throw new CodedError(ErrorCode.EhrPatientNotFound, { patientId: row.patientEpicId });
    if (!encounter) throw new CodedError(ErrorCode.EhrEncounterNotFound, { encounterId });
    if (encounter.patientFhirId !== patient.fhirId) throw new CodedError(ErrorCode.EhrEncounterOtherPatient, { encounterId, patientId: row.patientEpicId });
    // The EHR answered before the write: no transaction waits on it.
    await inTransaction(this.sequelize, () => this.writer.updateDetails(c.id, { encounterIdentifier: encounterId }));
    auditValues({ caseId: c.id, encounterId });
    return { caseId: c.id, encounterIdentifier: encounterId };
  }
}

/** The EHR payer search of the payer form (spec 02 §1 "Athena payer search", 03 §5 'Plan Name is required'): ITP admin. */
@ApiTags('payers')
@Controller('api/payers')
export class PayerEhrSearchController {
  constructor(
    private readonly connections: EhrConnections,
    @Inject(EHR_PORT) private readonly ehr: EhrPort,
  ) {}

  @Route('GET', 'ehr-search', 'manage', 'Payer')
  @ApiQuery({ name: 'planName', required: true, description: 'plan name (contains); missing → INV "Plan Name is required"' })
  @ApiOkResponse({
    description: 'InsurancePlans of the EHR (the athena facility\'s connection, else the first EHR-integrated one): insurancePackageId, insurancePlanName, affiliations, addressList',
    schema: { type: 'array', items: { type: 'object' } },
  })
  @ApiBadRequestResponse({ description: 'INV: Plan Name is required (field planName)' })
  @ApiConflictResponse({ description: 'INV.EHR.NOT.CONFIGURED: no facility is connected to an EHR' })
  async search(@Query('planName') rawPlanName: unknown) {
    const planName = queryValue(rawPlanName);
    if (blank(planName)) throw invalid([{ field: 'planName', key: 'required', message: 'Plan Name is required' }]);
    if (String(planName).length > 255) throw invalid([{ field: 'planName', key: 'maxLength', message: 'Must be at most 255 characters' }]);
    const conn = await this.connections.forPayerSearch();
    if (!conn) throw new CodedError(ErrorCode.EhrNotConfigured, undefined, undefined, 'No facility is connected to an EHR: set up a facility\'s EHR connection first');
    try {
      return await this.ehr.searchPlans(conn, String(planName).trim());
    } catch (err) {
      throw ehrFailure(err);
    }
  }
}
