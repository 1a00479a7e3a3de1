import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  ErrorCode,
  CaseStatus,
  OrganizationType,
  isCaseSourceSide,
  isItpStaff,
  outOfStateToggle,
  patientFileActions,
  type CaseFeedbackInput,
  type CaseNoteInput,
  type PatientFileMetaInput,
  type ProgressNoteInput,
  type UserContext,
  type VitalsInput,
} from '@crisis/forms';
import { CaseCommandsHandler } from '../cases/case-commands.handler';
import type { CaseEvent } from '@crisis/workflows';
import { afterCommit } from '../common/after-commit';
import { CodedError, forbidden, invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService, type CaseRef } from '../cases/cases.service';
import { select } from '../reference/reference-sql';


export const caseIsClosed = () => new CodedError(ErrorCode.CaseIsClosed, undefined, undefined, 'The case is closed');

const AUTHOR = `CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'fullName', u.first_name || ' ' || u.last_name, 'organizationType', u.organization_type) END`;

export interface CaseNoteRow {
  id: number;
  note: string;
  hidden: boolean;
  kind: string;
  reason: string | null;
  authorOrganizationType: string | null;
  createdBy: { id: number; fullName: string; organizationType: string } | null;
  createdAt: string;
  modifiedAt: string;
  canEdit: boolean;
  canHide: boolean;
}

/**
 * The records of a case (spec 01 §3 "Vitals", "Notes and files", tags, feedback; §6 rules):
 * every call first scopes the case to the user (CasesService.findInScope), writes refuse closed
 * cases, and what others should hear of is raised by the case workflow after commit.
 */
@Injectable()
export class CaseRecordsService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
    private readonly writer: CaseCommandsHandler,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Scoping
  // -------------------------------------------------------------------------------------------

  /** The case in the user's scope (404 / 403), with its id in the audit entry. */
  async open(user: UserContext, caseId: number): Promise<CaseRef> {
    const c = await this.cases.findInScope(user, caseId);
    auditValues({ caseId });
    return c;
  }

  /**
   * For a write: the case in scope and not closed (409 INV.CASE.IS.CLOSED). `updatesCase`: the write
   * then changes the case row itself, so the row is locked for that update at once — two writers
   * holding it for share, each waiting to update it, would deadlock.
   */
  async openForWrite(user: UserContext, caseId: number, updatesCase = false): Promise<CaseRef> {
    const c = await this.open(user, caseId);
    // Lock the row so a concurrent close is seen before the write commits.
    const lock = updatesCase ? 'FOR NO KEY UPDATE' : 'FOR SHARE';
    const [row] = await select<{ status: string }>(this.sequelize, `SELECT status FROM cases WHERE id = $1 ${lock}`, [caseId]);
    if (row.status === CaseStatus.Closed) throw caseIsClosed();
    return c;
  }

  /**
   * ITP staff, or the facility staff on the case's source side (its source division, or the
   * facility admin of its source facility). Referring facilities that were granted the case are not.
   */
  isSourceSide(user: UserContext, c: CaseRef): boolean {
    return isCaseSourceSide(user, c);
  }

  private requireSourceSide(user: UserContext, c: CaseRef) {
    if (!this.isSourceSide(user, c)) throw forbidden();
  }

  /** Raises the case's in-app notification once the change is committed (spec 02 §3). */
  private notify(user: UserContext, caseId: number, event: CaseEvent, payload?: Record<string, unknown>) {
    return afterCommit(`notify ${event}`, () => this.commands.run(user, caseId, { kind: 'recordEvent', event, payload }));
  }

  // -------------------------------------------------------------------------------------------
  // Vitals
  // -------------------------------------------------------------------------------------------

  async vitals(user: UserContext, caseId: number) {
    await this.open(user, caseId);
    return select(
      this.sequelize,
      `SELECT v.id, v.submitted_on AS "submittedOn", v.pulse,
              json_build_object('systolic', v.systolic, 'diastolic', v.diastolic) AS "bloodPressure",
              v.oxygen_saturation::float8 AS "oxygenSaturation",
              v.body_temperature::float8 AS "bodyTemperature", v.respiration_rate::float8 AS "respirationRate",
              v.created_at AS "createdAt", ${AUTHOR} AS "createdBy"
         FROM vitals v LEFT JOIN users u ON u.id = v.created_by
        WHERE v.case_id = $1 ORDER BY v.submitted_on DESC, v.id DESC`,
      [caseId],
    );
  }

  async addVitals(user: UserContext, caseId: number, body: VitalsInput) {
    const c = await this.openForWrite(user, caseId);
    this.requireSourceSide(user, c);
    const bp = body.bloodPressure ?? {};
    const [row] = await select<{ id: number }>(
      this.sequelize,
      `INSERT INTO vitals (case_id, submitted_on, pulse, systolic, diastolic, oxygen_saturation, body_temperature, respiration_rate, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        caseId,
        body.submittedOn,
        body.pulse ?? null,
        bp.systolic ?? null,
        bp.diastolic ?? null,
        body.oxygenSaturation ?? null, // a fraction (spec 01 §3)
        body.bodyTemperature ?? null,
        body.respirationRate ?? null,
        user.id,
      ],
    );
    auditValues({ vitalsId: row.id });
    await this.notify(user, caseId, 'VitalsAdded');
    return { id: row.id };
  }

  // -------------------------------------------------------------------------------------------
  // Progress notes
  // -------------------------------------------------------------------------------------------

  async progressNotes(user: UserContext, caseId: number) {
    await this.open(user, caseId);
    return select(
      this.sequelize,
      `SELECT n.id, n.note, n.submitted_on AS "submittedOn", n.created_at AS "createdAt", ${AUTHOR} AS "createdBy"
         FROM progress_notes n LEFT JOIN users u ON u.id = n.created_by
        WHERE n.case_id = $1 ORDER BY n.submitted_on DESC, n.id DESC`,
      [caseId],
    );
  }

  async addProgressNote(user: UserContext, caseId: number, body: ProgressNoteInput) {
    await this.openForWrite(user, caseId);
    const [row] = await select<{ id: number }>(
      this.sequelize,
      'INSERT INTO progress_notes (case_id, note, submitted_on, created_by) VALUES ($1, $2, $3, $4) RETURNING id',
      [caseId, body.note, body.submittedOn, user.id],
    );
    auditValues({ progressNoteId: row.id });
    return { id: row.id };
  }

  // -------------------------------------------------------------------------------------------
  // Case notes (spec 01 §6 "Case notes view", §4 "Patient file and note visibility")
  // -------------------------------------------------------------------------------------------

  /** Whether the user may edit or remove this note: open case, a note people wrote, an author of the user's side. */
  private canEditNote(user: UserContext, c: { closed: boolean; sourceSide: boolean }, n: { kind: string; authorOrganizationType: string | null }) {
    if (c.closed || n.kind !== 'user' || !c.sourceSide) return false;
    if (user.organizationType === OrganizationType.Facility) return n.authorOrganizationType === OrganizationType.Facility;
    return n.authorOrganizationType === OrganizationType.ITP;
  }

  private canHideNote(user: UserContext, c: { closed: boolean }, n: { authorOrganizationType: string | null }) {
    return !c.closed && isItpStaff(user.role) && n.authorOrganizationType === OrganizationType.ITP;
  }

  async caseNotes(user: UserContext, caseId: number): Promise<CaseNoteRow[]> {
    const c = await this.open(user, caseId);
    const ctx = { closed: c.status === CaseStatus.Closed, sourceSide: this.isSourceSide(user, c) };
    const rows = await select<Omit<CaseNoteRow, 'canEdit' | 'canHide'>>(
      this.sequelize,
      `SELECT n.id, n.note, n.hidden, n.kind, n.reason, n.author_organization_type AS "authorOrganizationType",
              n.created_at AS "createdAt", n.modified_at AS "modifiedAt", ${AUTHOR} AS "createdBy"
         FROM case_notes n LEFT JOIN users u ON u.id = n.created_by
        WHERE n.case_id = $1 AND n.deleted_at IS NULL AND ($2 OR NOT n.hidden)
        ORDER BY n.created_at DESC, n.id DESC`,
      [caseId, isItpStaff(user.role)],
    );
    return rows.map((n) => ({ ...n, canEdit: this.canEditNote(user, ctx, n), canHide: this.canHideNote(user, ctx, n) }));
  }

  async addCaseNote(user: UserContext, caseId: number, body: CaseNoteInput) {
    const c = await this.openForWrite(user, caseId);
    this.requireSourceSide(user, c);
    const [row] = await select<{ id: number }>(
      this.sequelize,
      `INSERT INTO case_notes (case_id, note, kind, created_by, author_organization_type)
       VALUES ($1, $2, 'user', $3, $4) RETURNING id`,
      [caseId, body.note, user.id, user.organizationType],
    );
    auditValues({ caseNoteId: row.id });
    await this.notify(user, caseId, 'CaseNoteAdded', { CaseNoteId: row.id });
    return { id: row.id };
  }

  /** The note of this case (not deleted; hidden ones only for ITP staff), locked for the write. */
  private async noteForWrite(user: UserContext, caseId: number, noteId: number) {
    const c = await this.openForWrite(user, caseId);
    const [n] = await select<{ id: number; kind: string; hidden: boolean; authorOrganizationType: string | null }>(
      this.sequelize,
      `SELECT id, kind, hidden, author_organization_type AS "authorOrganizationType"
         FROM case_notes WHERE id = $1 AND case_id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [noteId, caseId],
    );
    if (!n || (n.hidden && !isItpStaff(user.role))) throw notFound();
    auditValues({ caseNoteId: noteId });
    return { c, n, ctx: { closed: false, sourceSide: this.isSourceSide(user, c) } };
  }

  async updateCaseNote(user: UserContext, caseId: number, noteId: number, body: CaseNoteInput) {
    const { n, ctx } = await this.noteForWrite(user, caseId, noteId);
    if (!this.canEditNote(user, ctx, n)) throw forbidden();
    await this.sequelize.query(
      'UPDATE case_notes SET note = $2, reason = $3, modified_at = now(), modified_by = $4 WHERE id = $1',
      { bind: [noteId, body.note, body.reason ?? null, user.id] },
    );
    await this.notify(user, caseId, 'CaseNoteUpdated', { CaseNoteId: noteId });
    return { id: noteId };
  }

  async removeCaseNote(user: UserContext, caseId: number, noteId: number) {
    const { n, ctx } = await this.noteForWrite(user, caseId, noteId);
    if (!this.canEditNote(user, ctx, n)) throw forbidden();
    await this.sequelize.query('UPDATE case_notes SET deleted_at = now(), modified_by = $2 WHERE id = $1', { bind: [noteId, user.id] });
    await this.notify(user, caseId, 'CaseNoteUpdated', { CaseNoteId: noteId, Removed: true });
    return { id: noteId };
  }

  async setCaseNoteHidden(user: UserContext, caseId: number, noteId: number, hidden: boolean) {
    const { n, ctx } = await this.noteForWrite(user, caseId, noteId);
    if (!this.canHideNote(user, ctx, n)) throw forbidden();
    await this.sequelize.query('UPDATE case_notes SET hidden = $2, modified_by = $3 WHERE id = $1', { bind: [noteId, hidden, user.id] });
    auditValues({ hidden });
    return { id: noteId, hidden };
  }

  // -------------------------------------------------------------------------------------------
  // Patient files (the upload itself is in the controller: it streams)
  // -------------------------------------------------------------------------------------------

  async files(user: UserContext, caseId: number) {
    const c = await this.open(user, caseId);
    const rows = await select<Record<string, any> & { submittedById: number | null }>(
      this.sequelize,
      `SELECT f.id, f.title, f.note, f.file_name AS "fileName", f.size_bytes::float8 AS "size", f.hidden,
              f.submitted_on AS "submittedOn", ${AUTHOR} AS "submittedBy", f.submitted_by AS "submittedById"
         FROM patient_files f LEFT JOIN users u ON u.id = f.submitted_by
        WHERE f.case_id = $1 AND ($2 OR NOT f.hidden)
        ORDER BY f.submitted_on DESC, f.id DESC`,
      [caseId, isItpStaff(user.role)],
    );
    const closed = c.status === CaseStatus.Closed;
    return rows.map((f) => ({ ...f, ...patientFileActions(user, { ...c, closed }, f) }));
  }

  /** A file of the case the user may see (hidden ones only for ITP staff). */
  async file(user: UserContext, caseId: number, fileId: number, forUpdate = false) {
    const [f] = await select<{ id: number; storageKey: string; fileName: string; hidden: boolean; size: number; submittedById: number | null }>(
      this.sequelize,
      `SELECT id, storage_key AS "storageKey", file_name AS "fileName", hidden, size_bytes::float8 AS size, submitted_by AS "submittedById"
         FROM patient_files WHERE id = $1 AND case_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [fileId, caseId],
    );
    if (!f || (f.hidden && !isItpStaff(user.role))) throw notFound();
    auditValues({ patientFileId: fileId });
    return f;
  }

  async insertFile(user: UserContext, c: CaseRef, meta: PatientFileMetaInput, fileName: string, storageKey: string, size: number) {
    const [row] = await select<{ id: number }>(
      this.sequelize,
      `INSERT INTO patient_files (case_id, patient_id, title, note, file_name, storage_key, size_bytes, submitted_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [c.id, c.patientId, meta.title, meta.note ?? null, fileName, storageKey, size, user.id],
    );
    auditValues({ patientFileId: row.id, fileName, size });
    await this.notify(user, c.id, 'PatientFileUpdated', { PatientFileId: row.id });
    return { id: row.id, title: meta.title };
  }

  async updateFile(user: UserContext, caseId: number, fileId: number, body: PatientFileMetaInput) {
    const c = await this.openForWrite(user, caseId);
    const f = await this.file(user, caseId, fileId, true);
    // Facility staff edit only the files they submitted (spec 02 §6).
    if (!patientFileActions(user, { ...c, closed: false }, f).canEdit) throw forbidden();
    await this.sequelize.query('UPDATE patient_files SET title = $2, note = $3, modified_at = now(), modified_by = $4 WHERE id = $1', {
      bind: [fileId, body.title, body.note ?? null, user.id],
    });
    await this.notify(user, caseId, 'PatientFileUpdated', { PatientFileId: fileId });
    return { id: fileId };
  }

  /** DELETE files/{fileId}: the file's row goes, then its stored bytes once the deletion is committed. */
  async removeFile(user: UserContext, caseId: number, fileId: number, removeStored: (storageKey: string) => Promise<void>) {
    const c = await this.openForWrite(user, caseId);
    const f = await this.file(user, caseId, fileId, true);
    if (!patientFileActions(user, { ...c, closed: false }, f).canDelete) throw forbidden();
    await this.sequelize.query('DELETE FROM patient_files WHERE id = $1', { bind: [fileId] });
    auditValues({ fileName: f.fileName, removed: true });
    await this.notify(user, caseId, 'PatientFileUpdated', { PatientFileId: fileId, Removed: true });
    await afterCommit('remove the stored patient file', () => removeStored(f.storageKey));
    return { id: fileId };
  }

  async setFileHidden(user: UserContext, caseId: number, fileId: number, hidden: boolean) {
    await this.openForWrite(user, caseId);
    await this.file(user, caseId, fileId, true);
    await this.sequelize.query('UPDATE patient_files SET hidden = $2, modified_at = now(), modified_by = $3 WHERE id = $1', {
      bind: [fileId, hidden, user.id],
    });
    auditValues({ hidden });
    return { id: fileId, hidden };
  }

  // -------------------------------------------------------------------------------------------
  // Tags, out-of-state, feedback
  // -------------------------------------------------------------------------------------------

  async tags(user: UserContext, caseId: number) {
    await this.open(user, caseId);
    const tags = await select<{ id: number; name: string }>(
      this.sequelize,
      'SELECT t.id, t.name FROM case_tags ct JOIN patient_tags t ON t.id = ct.tag_id WHERE ct.case_id = $1 ORDER BY lower(t.name)',
      [caseId],
    );
    const available = await select<{ id: number; name: string }>(this.sequelize, 'SELECT id, name FROM patient_tags ORDER BY lower(name)');
    return { tags, available };
  }

  async setTags(user: UserContext, caseId: number, tagIds: number[]) {
    await this.openForWrite(user, caseId, true);
    const found = await select<{ id: number }>(this.sequelize, 'SELECT id FROM patient_tags WHERE id = ANY($1::int[])', [tagIds]);
    const missing = tagIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw invalid([{ field: 'tagIds', key: 'invalid', message: `Unknown tag ${missing.join(', ')}` }]);
    await this.sequelize.query('DELETE FROM case_tags WHERE case_id = $1 AND NOT (tag_id = ANY($2::int[]))', { bind: [caseId, tagIds] });
    if (tagIds.length)
      await this.sequelize.query(
        'INSERT INTO case_tags (case_id, tag_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
        { bind: [caseId, tagIds] },
      );
    await this.writer.updateDetails(caseId, {});
    auditValues({ tagIds });
    return this.tags(user, caseId);
  }

  async setIncludeOutOfState(user: UserContext, caseId: number, includeOutOfState: boolean) {
    await this.openForWrite(user, caseId, true);
    const [c] = await select<{ status: string; isInvoluntary: boolean; populateOutOfStateFacilities: boolean }>(
      this.sequelize,
      `SELECT c.status, c.is_involuntary AS "isInvoluntary", f.populate_out_of_state_facilities AS "populateOutOfStateFacilities"
         FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE c.id = $1`,
      [caseId],
    );
    const toggle = outOfStateToggle(c);
    if (!toggle.shown)
      throw invalid([{ field: 'includeOutOfState', key: 'notAvailable', message: 'Out-of-state facilities are offered for involuntary cases of a facility that populates them' }]);
    if (!toggle.enabled) throw new CodedError(ErrorCode.CaseNotContacting, undefined, undefined, 'The out-of-state choice changes while contacting service organizations');
    await this.writer.updateDetails(caseId, { includeOutOfStateFacilities: includeOutOfState });
    auditValues({ includeOutOfState });
    return { includeOutOfStateFacilities: includeOutOfState };
  }

  /** The user's own feedback on the case (null when none yet). */
  async feedback(user: UserContext, caseId: number) {
    await this.open(user, caseId);
    const [row] = await select(
      this.sequelize,
      `SELECT id, rating, note, confirmation, cant_attest AS "cantAttest", created_at AS "createdAt", updated_at AS "updatedAt"
         FROM case_feedback WHERE case_id = $1 AND created_by = $2`,
      [caseId, user.id],
    );
    return row ?? null;
  }

  async saveFeedback(user: UserContext, caseId: number, body: CaseFeedbackInput) {
    const c = await this.open(user, caseId);
    this.requireSourceSide(user, c);
    const [row] = await select<{ status: string }>(this.sequelize, 'SELECT status FROM cases WHERE id = $1 FOR SHARE', [caseId]);
    if (row.status !== CaseStatus.Closed)
      throw new CodedError(ErrorCode.CaseNotClosed, undefined, undefined, 'Feedback can be given on closed cases only');
    const [saved] = await select<{ id: number; created: boolean }>(
      this.sequelize,
      `INSERT INTO case_feedback (case_id, rating, note, confirmation, cant_attest, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (case_id, created_by) DO UPDATE
          SET rating = EXCLUDED.rating, note = EXCLUDED.note, confirmation = EXCLUDED.confirmation,
              cant_attest = EXCLUDED.cant_attest, updated_at = now()
       RETURNING id, (xmax = 0) AS created`,
      [caseId, body.rating, body.note ?? null, body.confirmation ?? false, body.cantAttest ?? false, user.id],
    );
    auditValues({ feedbackId: saved.id, rating: body.rating, updated: !saved.created });
    return { id: saved.id, created: saved.created };
  }
}
