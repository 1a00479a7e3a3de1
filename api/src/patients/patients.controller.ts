import { Body, Controller, HttpCode, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorCode,
  MERGE_GROUPS_PAGE_SIZE,
  type CaseSourceDetailsInput,
  type PatientIdsInput,
  type PatientInput,
  type PatientListFilter,
  type UserContext,
} from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditService } from '../audit/audit.service';
import { readEntry } from '../audit/audited-read';
import { afterCommit } from '../common/after-commit';
import { invalid } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { checkFilter, parseCheckedList } from '../facilities/list-params';
import { ApiListQuery, ListRoute, sendPage } from '../common/list-route';
import { parseListQuery } from '../common/list-query';
import { PATIENT_SORTABLE, PatientDirectoryService } from './patient-directory.service';
import { PatientMergeService } from './patient-merge.service';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService } from '../cases/cases.service';
import { CaseSourceService } from './case-source.service';
import { LOG_PAGE_SIZE, PatientsService } from './patients.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { ScopedCase, SourceSideCase, type CaseRef } from '../auth/scoped-case';


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
  async updateSource(@CurrentUser() user: UserContext, @SourceSideCase() { id: caseId }: CaseRef, @Body(schema('caseSourceDetails')) body: CaseSourceDetailsInput) {
    const { divisionChanged, previousDivisionId } = await this.source.update(user, caseId, body);
    // A moved case also tells the division it left (CaseSourceUpdatedToOldDivision, raised with it).
    await afterCommit('notify source updated', () =>
      this.commands.run(user, caseId, {
        kind: 'recordEvent',
        event: 'CaseSourceUpdated',
        payload: { divisionChanged, ...(divisionChanged ? { OldDivisionId: previousDivisionId } : {}) },
      }),
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
  async updatePatient(@CurrentUser() user: UserContext, @SourceSideCase() { id: caseId }: CaseRef, @Body(schema('patient')) body: PatientInput) {
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
    private readonly directory: PatientDirectoryService,
    private readonly merges: PatientMergeService,
    private readonly audit: AuditService,
  ) {}

  /** A read of a patient's record is audited (ARCHITECTURE "Audit"). */
  private async auditRead(action: string, req: FastifyRequest, user: UserContext, patientId: number) {
    await this.audit.record({ ...readEntry(action, req, user), success: true, statusCode: 200, values: { patientId } });
  }

  @ListRoute('list', 'Patient', {
    sortable: PATIENT_SORTABLE,
    filter: 'name (every word part of the first or last name), cities[], states[], ageRanges[] (Child, Adolescent, Adult, Geriatric), genders[], id[]',
    description: 'The patient directory (spec 02 §2): live records (not merged away) with reference, name, gender, DOB, city/state, source facilities; total in Content-Range',
  })
  async list(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseCheckedList<PatientListFilter>(query, { sortable: PATIENT_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'patientListFilter', maxPage: 100 });
    const page = await this.directory.list(q);
    await this.audit.record({ ...readEntry('Patient.List', req, user), success: true, statusCode: 200, values: { filter: q.filter, count: page.rows.length } });
    return sendPage(reply, 'patients', q, page);
  }

  @Route('GET', 'merge/groups', 'access', 'PatientMerge')
  @ApiListQuery(['name'], 'none')
  @ApiOkResponse({ description: `Duplicate groups (same first name, last name and date of birth) not marked "no merging needed": id, firstName, lastName, dateOfBirth, recordsCount; ${MERGE_GROUPS_PAGE_SIZE} a page, total in Content-Range` })
  async mergeGroups(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseListQuery(query, { sortable: ['name'], defaultSort: ['name', 'ASC'], maxPage: MERGE_GROUPS_PAGE_SIZE });
    return sendPage(reply, 'merge-groups', q, await this.directory.groups(q.offset, q.limit));
  }

  @Route('GET', 'merge/records', 'access', 'PatientMerge')
  @ApiQuery({ name: 'firstName', required: true })
  @ApiQuery({ name: 'lastName', required: true })
  @ApiQuery({ name: 'dateOfBirth', required: true, description: 'YYYY-MM-DD' })
  @ApiOkResponse({ description: 'The live records of one duplicate group, oldest first (the first is the one a merge keeps)' })
  @ApiBadRequestResponse({ description: 'INV: a missing or bad name or date of birth' })
  async mergeRecords(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @Query() query: Record<string, unknown>) {
    const q = checkFilter<{ firstName: string; lastName: string; dateOfBirth: string }>(
      { firstName: queryValue(query.firstName), lastName: queryValue(query.lastName), dateOfBirth: queryValue(query.dateOfBirth) },
      'mergeRecordsQuery',
    );
    const records = await this.directory.records(q);
    await this.audit.record({ ...readEntry('Patient.MergeRecords', req, user), success: true, statusCode: 200, values: { patientIds: records.map((r) => r.id) } });
    return records;
  }

  @Route('POST', 'merge/records', 'access', 'PatientMerge', 'Patient.Merge')
  @HttpCode(200)
  @ApiSchemaBody('patientIds')
  @ApiOkResponse({ description: '{ survivorId, mergedIds, moved }: the oldest record survives; cases, files, insurances and history of the others move to it' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({
    description: `${ErrorCode.MergePatientsWithMoreThanOneActiveCases} (payload { activeCases }); ${ErrorCode.PatientMerged} (payload { survivorId }) for a record merged earlier`,
  })
  merge(@CurrentUser() user: UserContext, @Body(schema('patientIds')) body: PatientIdsInput) {
    return this.merges.merge(user, body.patientIds);
  }

  @Route('POST', 'merge/not-needed', 'access', 'PatientMerge', 'Patient.MergeNotNeeded')
  @HttpCode(200)
  @ApiSchemaBody('patientIds')
  @ApiOkResponse({ description: '{ patientIds }: the group no longer shows among the duplicates' })
  @ApiBadRequestResponse({ description: 'INV (field patientIds, key allRecordsRequired): every record of the group must be selected' })
  markNotNeeded(@CurrentUser() user: UserContext, @Body(schema('patientIds')) body: PatientIdsInput) {
    return this.merges.markNotNeeded(user, body.patientIds);
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
  @ApiConflictResponse({ description: `${ErrorCode.PatientMerged} (payload { survivorId }): the record was merged into another` })
  async get(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @IdParam() patientId: number) {
    await this.directory.assertLive(patientId);
    const patient = await this.patients.get(patientId);
    await this.auditRead('Patient.Read', req, user, patientId);
    return patient;
  }

  @Route('GET', ':id/history', 'access', 'PatientHistory')
  @ApiOkResponse({ description: '{ patient, cases }: every case of the patient (reference, created, status, source facility and division, outcome), newest first' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: `${ErrorCode.PatientMerged} (payload { survivorId }): the record was merged into another` })
  async history(@CurrentUser() user: UserContext, @Req() req: FastifyRequest, @IdParam() patientId: number) {
    await this.directory.assertLive(patientId);
    const history = await this.patients.history(user, patientId);
    await this.auditRead('Patient.History', req, user, patientId);
    return history;
  }

  @Route('GET', ':id/insurances/last', 'read', 'CaseSearchResult')
  @ApiOkResponse({ description: "The insurances of the patient's latest case, in order" })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: `${ErrorCode.PatientMerged} (payload { survivorId })` })
  async lastInsurances(@IdParam() id: number) {
    await this.directory.assertLive(id);
    return this.patients.lastInsurances(id);
  }
}
