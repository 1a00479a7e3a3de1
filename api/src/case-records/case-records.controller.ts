import { Body, Controller, HttpCode, Inject, Req, Res } from '@nestjs/common';
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
import { CurrentUser } from '../auth/current-user.decorator';
import { invalid } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { FILE_STORAGE, sendStored, type FileStorage } from '../files/storage';
import { fileError, peekUpload, storeUpload } from '../files/upload';
import { CaseRecordsService } from './case-records.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';

const AREA = 'patient-files';
const CLOSED = 'INV.CASE.IS.CLOSED: the case is closed';
const ID = { name: 'id', type: Number, description: 'Case id' } as const;

/**
 * The records of a case (spec 01 §7 under /api/cases/{id}): vitals, progress notes, case notes,
 * patient files, tags, the out-of-state option and feedback.
 */
@ApiTags('case-records')
@Controller('api/cases/:id')
@ApiParam(ID)
export class CaseRecordsController {
  constructor(
    private readonly records: CaseRecordsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  // ---------------------------------------------------------------------------------- vitals

  @Route('GET', 'vitals', 'read', 'Vitals')
  @ApiOkResponse({ description: 'Vitals newest first; oxygenSaturation as a fraction (0.97)' })
  vitals(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.vitals(user, id);
  }

  @Route('POST', 'vitals', 'create', 'Vitals', 'Case.AddVitals')
  @ApiSchemaBody('vitals')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addVitals(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('vitals')) body: VitalsInput) {
    return this.records.addVitals(user, id, body);
  }

  // ---------------------------------------------------------------------------------- progress notes

  @Route('GET', 'progress-notes', 'read', 'ProgressNote')
  @ApiOkResponse({ description: 'Progress notes newest first' })
  progressNotes(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.progressNotes(user, id);
  }

  @Route('POST', 'progress-notes', 'create', 'ProgressNote', 'Case.AddProgressNote')
  @ApiSchemaBody('progressNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addProgressNote(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('progressNote')) body: ProgressNoteInput) {
    return this.records.addProgressNote(user, id, body);
  }

  // ---------------------------------------------------------------------------------- case notes

  @Route('GET', 'notes', 'read', 'CaseNote')
  @ApiOkResponse({ description: 'Case notes newest first (hidden ones for ITP staff only), each with canEdit and canHide for this user' })
  notes(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.caseNotes(user, id);
  }

  @Route('POST', 'notes', 'create', 'CaseNote', 'Case.AddNote')
  @ApiSchemaBody('caseNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  addNote(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('caseNote')) body: CaseNoteInput) {
    return this.records.addCaseNote(user, id, body);
  }

  @Route('PUT', 'notes/:noteId', 'update', 'CaseNote', 'Case.UpdateNote')
  @ApiSchemaBody('caseNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  updateNote(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @IdParam('noteId') noteId: number,
    @Body(schema('caseNote')) body: CaseNoteInput,
  ) {
    return this.records.updateCaseNote(user, id, noteId, body);
  }

  @Route('DELETE', 'notes/:noteId', 'delete', 'CaseNote', 'Case.RemoveNote')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  removeNote(@CurrentUser() user: UserContext, @IdParam() id: number, @IdParam('noteId') noteId: number) {
    return this.records.removeCaseNote(user, id, noteId);
  }

  @Route('POST', 'notes/:noteId', 'update', 'HiddenCaseNote', 'Case.SetNoteHidden')
  @HttpCode(200)
  @ApiSchemaBody('caseNoteHidden')
  @ApiOkResponse({ description: '{ id, hidden }' })
  @ApiConflictResponse({ description: CLOSED })
  setNoteHidden(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @IdParam('noteId') noteId: number,
    @Body(schema('caseNoteHidden')) body: CaseNoteHiddenInput,
  ) {
    return this.records.setCaseNoteHidden(user, id, noteId, body.hidden);
  }

  // ---------------------------------------------------------------------------------- patient files

  @Route('GET', 'files', 'read', 'PatientFile')
  @ApiOkResponse({ description: 'Patient files newest first (hidden ones for ITP staff only)' })
  files(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.files(user, id);
  }

  @Route('POST', 'files', 'create', 'PatientFile', 'Case.UploadPatientFile')
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
  async upload(@Req() req: FastifyRequest, @CurrentUser() user: UserContext, @IdParam() caseId: number) {
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

  @Route('GET', 'files/:fileId', 'read', 'PatientFile')
  @ApiOkResponse({ description: 'The PDF (attachment)' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async download(@CurrentUser() user: UserContext, @IdParam() caseId: number, @IdParam('fileId') fileId: number, @Res() reply: FastifyReply) {
    await this.records.open(user, caseId);
    const f = await this.records.file(user, caseId, fileId);
    const stored = await this.storage.get(AREA, f.storageKey);
    if (!stored) throw new CodedError(ErrorCode.NotFound);
    const name = f.fileName.replace(/["\\\r\n]/g, '_');
    reply.header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`);
    return sendStored(reply, stored, 'application/pdf');
  }

  @Route('PUT', 'files/:fileId', 'update', 'PatientFile', 'Case.UpdatePatientFile')
  @ApiSchemaBody('patientFileMeta')
  @ApiOkResponse({ description: '{ id }' })
  @ApiConflictResponse({ description: CLOSED })
  updateFile(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @IdParam('fileId') fileId: number,
    @Body(schema('patientFileMeta')) body: PatientFileMetaInput,
  ) {
    return this.records.updateFile(user, id, fileId, body);
  }

  @Route('DELETE', 'files/:fileId', 'delete', 'PatientFile', 'Case.RemovePatientFile')
  @ApiOkResponse({ description: '{ id }: a file the facility user submitted herself is removed (spec 02 §6); FRBD for anyone else\'s' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: CLOSED })
  removeFile(@CurrentUser() user: UserContext, @IdParam() id: number, @IdParam('fileId') fileId: number) {
    return this.records.removeFile(user, id, fileId, (key) => this.storage.remove(AREA, key));
  }

  @Route('POST', 'files/:fileId/hidden', 'update', 'HiddenPatientFile', 'Case.SetPatientFileHidden')
  @HttpCode(200)
  @ApiSchemaBody('caseNoteHidden')
  @ApiOkResponse({ description: '{ id, hidden }' })
  @ApiConflictResponse({ description: CLOSED })
  setFileHidden(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @IdParam('fileId') fileId: number,
    @Body(schema('caseNoteHidden')) body: CaseNoteHiddenInput,
  ) {
    return this.records.setFileHidden(user, id, fileId, body.hidden);
  }

  // ---------------------------------------------------------------------------------- tags, out of state, feedback

  @Route('GET', 'tags', 'read', 'Case')
  @ApiOkResponse({ description: "{ tags, available }: the case's tags and every patient tag" })
  tags(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.tags(user, id);
  }

  @Route('PUT', 'tags', 'update', 'CaseTag', 'Case.SetTags')
  @ApiSchemaBody('caseTags')
  @ApiOkResponse({ description: '{ tags, available }' })
  @ApiConflictResponse({ description: CLOSED })
  setTags(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('caseTags')) body: CaseTagsInput) {
    return this.records.setTags(user, id, body.tagIds);
  }

  @Route('PUT', 'include-out-of-state', 'update', 'CaseStatus', 'Case.IncludeOutOfState')
  @ApiSchemaBody('caseIncludeOutOfState')
  @ApiOkResponse({ description: '{ includeOutOfStateFacilities }' })
  @ApiConflictResponse({ description: CLOSED })
  includeOutOfState(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @Body(schema('caseIncludeOutOfState')) body: CaseIncludeOutOfStateInput,
  ) {
    return this.records.setIncludeOutOfState(user, id, body.includeOutOfState);
  }

  @Route('GET', 'feedback', 'create', 'CaseFeedback')
  @ApiOkResponse({ description: "The user's own feedback on the case, or null" })
  feedback(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.records.feedback(user, id);
  }

  @Route('POST', 'feedback', 'create', 'CaseFeedback', 'Case.Feedback')
  @HttpCode(200)
  @ApiSchemaBody('caseFeedback')
  @ApiOkResponse({ description: '{ id, created }: a second feedback by the same user updates the first' })
  @ApiConflictResponse({ description: 'INV.CASE.NOT.CLOSED: feedback is given on closed cases only' })
  saveFeedback(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('caseFeedback')) body: CaseFeedbackInput) {
    return this.records.saveFeedback(user, id, body);
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
