import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { randomUUID } from 'crypto';
import {
  CodedError,
  ErrorCode,
  PATIENT_FILE_MAX_BYTES,
  PDF_ONLY_MESSAGE,
  fileTitleFromName,
  isPdfHead,
  normalizeInput,
  validate,
  type CaseFeedbackInput,
  type CaseIncludeOutOfStateInput,
  type CaseNoteHiddenInput,
  type CaseNoteInput,
  type CaseTagsInput,
  type PatientFileMetaInput,
  type ProgressNoteInput,
  type UserContext,
  type VitalsInput,
} from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { invalid } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import { FILE_STORAGE, type FileStorage } from '../files/storage';
import { fileError, peekUpload, storeUpload } from '../files/upload';
import { CaseRecordsService } from './case-records.service';

const AREA = 'patient-files';
const CLOSED = 'INV.CASE.IS.CLOSED: the case is closed';
const ID = { name: 'id', type: Number, description: 'Case id' } as const;

/**
 * The records of a case (spec 01 §7 under /api/cases/{id}): vitals, progress notes, case notes,
 * patient files, tags, the out-of-state option and feedback.
 */
@ApiTags('case-records')
@Controller('api/cases/:id')
export class CaseRecordsController {
  constructor(
    private readonly records: CaseRecordsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  // ---------------------------------------------------------------------------------- vitals

  @Get('vitals')
  @CheckAbility('read', 'Vitals')
  @ApiParam(ID)
  @ApiOkResponse({ description: 'Vitals newest first; oxygenSaturation in percent' })
  vitals(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.vitals(user, parseId(id));
  }

  @Post('vitals')
  @CheckAbility('create', 'Vitals')
  @AuditAction('Case.AddVitals')
  @ApiParam(ID)
  @ApiSchemaBody('vitals')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addVitals(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('vitals')) body: VitalsInput) {
    return this.records.addVitals(user, parseId(id), body);
  }

  // ---------------------------------------------------------------------------------- progress notes

  @Get('progress-notes')
  @CheckAbility('read', 'ProgressNote')
  @ApiParam(ID)
  @ApiOkResponse({ description: 'Progress notes newest first' })
  progressNotes(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.progressNotes(user, parseId(id));
  }

  @Post('progress-notes')
  @CheckAbility('create', 'ProgressNote')
  @AuditAction('Case.AddProgressNote')
  @ApiParam(ID)
  @ApiSchemaBody('progressNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addProgressNote(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('progressNote')) body: ProgressNoteInput) {
    return this.records.addProgressNote(user, parseId(id), body);
  }

  // ---------------------------------------------------------------------------------- case notes

  @Get('notes')
  @CheckAbility('read', 'CaseNote')
  @ApiParam(ID)
  @ApiOkResponse({ description: 'Case notes newest first (hidden ones for ITP staff only), each with canEdit and canHide for this user' })
  notes(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.caseNotes(user, parseId(id));
  }

  @Post('notes')
  @CheckAbility('create', 'CaseNote')
  @AuditAction('Case.AddNote')
  @ApiParam(ID)
  @ApiSchemaBody('caseNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addNote(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseNote')) body: CaseNoteInput) {
    return this.records.addCaseNote(user, parseId(id), body);
  }

  @Put('notes/:noteId')
  @CheckAbility('update', 'CaseNote')
  @AuditAction('Case.UpdateNote')
  @ApiParam(ID)
  @ApiParam({ name: 'noteId', type: Number })
  @ApiSchemaBody('caseNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  updateNote(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('noteId') noteId: string,
    @Body(schema('caseNote')) body: CaseNoteInput,
  ) {
    return this.records.updateCaseNote(user, parseId(id), parseId(noteId), body);
  }

  @Delete('notes/:noteId')
  @CheckAbility('delete', 'CaseNote')
  @AuditAction('Case.RemoveNote')
  @ApiParam(ID)
  @ApiParam({ name: 'noteId', type: Number })
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  removeNote(@CurrentUser() user: UserContext, @Param('id') id: string, @Param('noteId') noteId: string) {
    return this.records.removeCaseNote(user, parseId(id), parseId(noteId));
  }

  @Post('notes/:noteId')
  @HttpCode(200)
  @CheckAbility('update', 'HiddenCaseNote')
  @AuditAction('Case.SetNoteHidden')
  @ApiParam(ID)
  @ApiParam({ name: 'noteId', type: Number })
  @ApiSchemaBody('caseNoteHidden')
  @ApiOkResponse({ description: '{ id, hidden }' })
  @ApiConflictResponse({ description: CLOSED })
  setNoteHidden(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('noteId') noteId: string,
    @Body(schema('caseNoteHidden')) body: CaseNoteHiddenInput,
  ) {
    return this.records.setCaseNoteHidden(user, parseId(id), parseId(noteId), body.hidden);
  }

  // ---------------------------------------------------------------------------------- patient files

  @Get('files')
  @CheckAbility('read', 'PatientFile')
  @ApiParam(ID)
  @ApiOkResponse({ description: 'Patient files newest first (hidden ones for ITP staff only)' })
  files(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.files(user, parseId(id));
  }

  @Post('files')
  @CheckAbility('create', 'PatientFile')
  @AuditAction('Case.UploadPatientFile')
  @ApiParam(ID)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        title: { type: 'string', maxLength: 255, description: "Default: the file's name without its extension (send before the file)" },
        note: { type: 'string', maxLength: 6000, description: 'Send before the file' },
        file: { type: 'string', format: 'binary', description: 'A PDF (checked by content), at most 104,857,600 bytes' },
      },
    },
  })
  @ApiOkResponse({ description: '{ id, title }' })
  @ApiBadRequestResponse({ description: "INV: no file, an empty file ('You can't upload empty file'), not a PDF, over 100 MB ('File size bigger than allowed max size'), or a bad title / note" })
  @ApiConflictResponse({ description: CLOSED })
  async upload(@Req() req: FastifyRequest, @CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    const c = await this.records.openForWrite(user, caseId);
    if (!this.records.isSourceSide(user, c)) throw new CodedError(ErrorCode.Forbidden);
    const part = await patientFilePart(req);
    const drain = () => part.file.resume();

    // The fields sent before the file: title (default from the name) and note.
    const field = (name: string) => {
      const f = (part.fields as Record<string, unknown>)[name] as { type?: string; value?: unknown } | undefined;
      return f && f.type === 'field' ? f.value : undefined;
    };
    const fileName = String(part.filename || 'file.pdf').slice(0, 255);
    const meta = normalizeInput({ title: field('title') ?? null, note: field('note') ?? null }) as PatientFileMetaInput;
    if (!meta.title) meta.title = fileTitleFromName(fileName).slice(0, 255);
    const errors = validate('patientFileMeta', meta);
    if (errors.length) {
      drain();
      throw invalid(errors);
    }

    // Type by content: the first bytes must be the PDF signature.
    const { head, source } = await peekUpload(part, 5);
    if (!isPdfHead(head)) {
      drain();
      throw fileError('pdfOnly', PDF_ONLY_MESSAGE);
    }
    const key = `case-${caseId}-${randomUUID()}.pdf`;
    const size = await storeUpload(this.storage, AREA, key, part, source, PATIENT_FILE_MAX_BYTES);
    try {
      return await this.records.insertFile(user, c, meta, fileName, key, size);
    } catch (err) {
      await this.storage.remove(AREA, key).catch(() => undefined);
      throw err;
    }
  }

  @Get('files/:fileId')
  @CheckAbility('read', 'PatientFile')
  @ApiParam(ID)
  @ApiParam({ name: 'fileId', type: Number })
  @ApiOkResponse({ description: 'The PDF (attachment)' })
  @ApiNotFoundResponse({ description: 'NTFND' })
  async download(@CurrentUser() user: UserContext, @Param('id') id: string, @Param('fileId') fileId: string, @Res() reply: FastifyReply) {
    const caseId = parseId(id);
    await this.records.open(user, caseId);
    const f = await this.records.file(user, caseId, parseId(fileId));
    const stored = await this.storage.get(AREA, f.storageKey);
    if (!stored) throw new CodedError(ErrorCode.NotFound);
    const name = f.fileName.replace(/["\\\r\n]/g, '_');
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Length', String(stored.size))
      .header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(stored.stream);
  }

  @Put('files/:fileId')
  @CheckAbility('create', 'PatientFile')
  @AuditAction('Case.UpdatePatientFile')
  @ApiParam(ID)
  @ApiParam({ name: 'fileId', type: Number })
  @ApiSchemaBody('patientFileMeta')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  updateFile(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
    @Body(schema('patientFileMeta')) body: PatientFileMetaInput,
  ) {
    return this.records.updateFile(user, parseId(id), parseId(fileId), body);
  }

  @Post('files/:fileId/hidden')
  @HttpCode(200)
  @CheckAbility('update', 'HiddenPatientFile')
  @AuditAction('Case.SetPatientFileHidden')
  @ApiParam(ID)
  @ApiParam({ name: 'fileId', type: Number })
  @ApiSchemaBody('caseNoteHidden')
  @ApiOkResponse({ description: '{ id, hidden }' })
  @ApiConflictResponse({ description: CLOSED })
  setFileHidden(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
    @Body(schema('caseNoteHidden')) body: CaseNoteHiddenInput,
  ) {
    return this.records.setFileHidden(user, parseId(id), parseId(fileId), body.hidden);
  }

  // ---------------------------------------------------------------------------------- tags, out of state, feedback

  @Get('tags')
  @CheckAbility('read', 'Case')
  @ApiParam(ID)
  @ApiOkResponse({ description: "{ tags, available }: the case's tags and every patient tag" })
  tags(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.tags(user, parseId(id));
  }

  @Put('tags')
  @CheckAbility('update', 'CaseTag')
  @AuditAction('Case.SetTags')
  @ApiParam(ID)
  @ApiSchemaBody('caseTags')
  @ApiOkResponse({ description: '{ tags, available }' })
  @ApiConflictResponse({ description: CLOSED })
  setTags(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseTags')) body: CaseTagsInput) {
    return this.records.setTags(user, parseId(id), body.tagIds);
  }

  @Put('include-out-of-state')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.IncludeOutOfState')
  @ApiParam(ID)
  @ApiSchemaBody('caseIncludeOutOfState')
  @ApiOkResponse({ description: '{ includeOutOfStateFacilities }' })
  @ApiConflictResponse({ description: CLOSED })
  includeOutOfState(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Body(schema('caseIncludeOutOfState')) body: CaseIncludeOutOfStateInput,
  ) {
    return this.records.setIncludeOutOfState(user, parseId(id), body.includeOutOfState);
  }

  @Get('feedback')
  @CheckAbility('create', 'CaseFeedback')
  @ApiParam(ID)
  @ApiOkResponse({ description: "The user's own feedback on the case, or null" })
  feedback(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.records.feedback(user, parseId(id));
  }

  @Post('feedback')
  @HttpCode(200)
  @CheckAbility('create', 'CaseFeedback')
  @AuditAction('Case.Feedback')
  @ApiParam(ID)
  @ApiSchemaBody('caseFeedback')
  @ApiOkResponse({ description: '{ id, created }: a second feedback by the same user updates the first' })
  @ApiConflictResponse({ description: 'INV.CASE.NOT.CLOSED: feedback is given on closed cases only' })
  saveFeedback(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseFeedback')) body: CaseFeedbackInput) {
    return this.records.saveFeedback(user, parseId(id), body);
  }
}

/** The file part of a patient-file upload, with the 100 MB limit (one byte more tells "too big"). */
async function patientFilePart(req: FastifyRequest): Promise<MultipartFile> {
  const r = req as FastifyRequest & { isMultipart?: () => boolean; file?: (o?: object) => Promise<MultipartFile | undefined> };
  if (!r.isMultipart?.() || !r.file) throw fileError('required', 'This field is required');
  let part: MultipartFile | undefined;
  try {
    part = await r.file({ limits: { fileSize: PATIENT_FILE_MAX_BYTES + 1, files: 1, fields: 10, fieldSize: 65536 } });
  } catch {
    throw fileError('invalid', 'The upload could not be read');
  }
  if (!part) throw fileError('required', 'This field is required');
  return part;
}
