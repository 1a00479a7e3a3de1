import { Body, Controller, Query, Req, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type CaseSourceDetailsInput, type PatientInput, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditService } from '../audit/audit.service';
import { readEntry } from '../audit/audited-read';
import { afterCommit } from '../common/after-commit';
import { invalid } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { checkFilter } from '../facilities/list-params';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService } from '../cases/cases.service';
import { CaseSourceService } from './case-source.service';
import { LOG_PAGE_SIZE, PatientsService } from './patients.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { ScopedCase, type CaseRef } from '../auth/scoped-case';


/** A 1-based page number from the query (default 1). */
export function parsePage(raw: unknown): number {
  const v = queryValue(raw);
  if (v === undefined || v === '') return 1;
  const s = String(v);
  if (!/^\d{1,6}$/.test(s) || Number(s) < 1) throw invalid([{ field: 'page', key: 'invalid', message: 'Must be a positive integer' }]);
  return Number(s);
}

/** The patient of a case and the case's source details (spec 01 §7 PUT /{id}, PUT /{id}/patient, GET /{id}/patient/logs). */
@ApiTags('cases')
@Controller('api/cases')
export class CasePatientController {
  constructor(
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
    private readonly patients: PatientsService,
    private readonly source: CaseSourceService,
  ) {}

  @Route('PUT', ':id', 'update', 'Case', 'Case.UpdateSource')
  @ApiSchemaBody('caseSourceDetails')
  @ApiOkResponse({ description: '{ id, divisionChanged }' })
  @ApiConflictResponse({
    description:
      'INV.CASE.IS.CLOSED; INV.UPDATE.SOURCE.WITH.ACTIVE.REQUESTS (division change while a request is active); ' +
      "INV.UPDATE.CASE.WITH.CREDENTIALED.PROVIDERS (payload { providerName }: resubmit with forceUpdate)",
  })
  async updateSource(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('caseSourceDetails')) body: CaseSourceDetailsInput) {
    const { divisionChanged } = await this.source.update(user, caseId, body);
    await afterCommit('notify source updated', () =>
      this.commands.run(user, caseId, { kind: 'recordEvent', event: 'CaseSourceUpdated', payload: { divisionChanged } }),
    );
    return { id: caseId, divisionChanged };
  }

  @Route('GET', ':id/source-divisions', 'update', 'Case')
  @ApiOkResponse({ description: "Active Source divisions of the case's facility (the source-details division picker)" })
  async sourceDivisions(@ScopedCase() { id: caseId }: CaseRef) {
    return this.source.divisionChoices(caseId);
  }

  @Route('PUT', ':id/patient', 'update', 'Case', 'Case.UpdatePatient')
  @ApiSchemaBody('patient')
  @ApiOkResponse({ description: 'The saved patient' })
  @ApiConflictResponse({
    description: 'INV.CASE.IS.CLOSED; INV.PATIENT.LOCKED.WHILE.CONTACTING (payload { field }: veteran flag, date of birth or gender while contacting)',
  })
  async updatePatient(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('patient')) body: PatientInput) {
    return this.patients.updateCasePatient(user, caseId, body);
  }

  @Route('GET', ':id/patient/logs', 'read', 'PatientLog')
  @ApiQuery({ name: 'page', required: false, description: '1-based page of 10 rows' })
  @ApiOkResponse({ description: '{ rows, total, page, pageSize }: patient changes of this case, newest first (name, oldValue, newValue, changedBy, changedAt)' })
  async logs(@ScopedCase() { id: caseId }: CaseRef, @Query('page') page: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const p = parsePage(page);
    const result = await this.patients.patientLogs(caseId, p);
    reply.header('Content-Range', contentRange('patient-logs', (p - 1) * LOG_PAGE_SIZE, result.rows.length, result.total));
    return result;
  }
}

/** Patients (spec 01 §7 /api/patients). */
@ApiTags('patients')
@Controller('api/patients')
export class PatientsController {
  constructor(
    private readonly patients: PatientsService,
    private readonly audit: AuditService,
  ) {}

  /** A read of a patient's record is audited (ARCHITECTURE "Audit"). */
  private async auditRead(action: string, req: FastifyRequest, user: UserContext, patientId: number) {
    await this.audit.record({ ...readEntry(action, req, user), success: true, statusCode: 200, values: { patientId } });
  }

  @Route('GET', 'search', 'read', 'CaseSearchResult')
  @ApiQuery({ name: 'name', required: false, description: 'part of the first or last name (every word must match)' })
  @ApiQuery({ name: 'dateOfBirth', required: false, description: 'YYYY-MM-DD' })
  @ApiOkResponse({ description: 'Up to 50 patients with reference number and last case' })
  search(@Query() query: Record<string, unknown>) {
    const name = queryValue(query.name);
    const dateOfBirth = queryValue(query.dateOfBirth);
    const q = checkFilter<{ name?: string | null; dateOfBirth?: string | null }>(
      { name: name === undefined || name === '' ? null : name, dateOfBirth: dateOfBirth === undefined || dateOfBirth === '' ? null : dateOfBirth },
      'patientSearch',
    );
    if (!q.name && !q.dateOfBirth) throw invalid([{ field: 'name', key: 'required', message: 'Enter a name or a date of birth' }]);
    return this.patients.search(q);
  }

  @Route('GET', ':id', 'access', 'PatientHistory')
  @ApiOkResponse({ description: 'The patient (spec 01 §3 Patient) with referenceNumber (5 digits), createdIn, sourceFacilities, lastCase, tags' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async get(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @IdParam() patientId: number) {
    const patient = await this.patients.get(patientId);
    await this.auditRead('Patient.Read', req, user, patientId);
    return patient;
  }

  @Route('GET', ':id/history', 'access', 'PatientHistory')
  @ApiOkResponse({ description: '{ patient, cases }: every case of the patient (reference, created, status, source facility and division, outcome), newest first' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async history(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @IdParam() patientId: number) {
    const history = await this.patients.history(user, patientId);
    await this.auditRead('Patient.History', req, user, patientId);
    return history;
  }

  @Route('GET', ':id/insurances/last', 'read', 'CaseSearchResult')
  @ApiOkResponse({ description: "The insurances of the patient's latest case, in order" })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  lastInsurances(@IdParam() id: number) {
    return this.patients.lastInsurances(id);
  }
}
