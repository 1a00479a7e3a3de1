import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { Readable } from 'stream';
import { stringify } from 'csv-stringify';
import { PDFDocument as LibPdf, StandardFonts } from '@cantoo/pdf-lib';
import { CodedError, ErrorCode, answeredQuestions, answersFromList, durationTwoUnits, formatDay, patientReference, caseReference, type UserContext } from '@crisis/forms';
import { CasesService } from '../cases/cases.service';
import { FILE_STORAGE, type FileStorage } from '../files/storage';
import { select } from '../reference/reference-sql';
import { formatPerformedAt } from '../audit/audit-log.service';
import { CasePdf } from './pdf-layout';

/** Where the patient files of a case are kept in the storage port (the files engineer's area). */
export const PATIENT_FILES_AREA = 'patient-files';

export interface PdfExportOptions {
  includeEvaluations: boolean;
  includeCaseNotes: boolean;
  includePatientFiles: boolean;
  fileIds: number[] | null;
}

type Details = Record<string, any>;

/** 'Transferred_MentalHealthInpatient' → 'Transferred - Mental Health Inpatient'. */
export function words(v: string | null | undefined): string {
  if (!v) return '';
  return v
    .split('_')
    .map((p) => p.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2'))
    .join(' - ');
}

const fullName = (p: { firstName?: string | null; lastName?: string | null } | null | undefined) =>
  p ? `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() : '';

/**
 * The case's exports (spec 01 §2 export to PDF, §3 activity report, §6 summary PDF, §7): every
 * document is built from data read up front, then streamed. Only the case PDF with patient files
 * appended is assembled in memory (pdf-lib copies pages of the stored PDFs, one file at a time).
 */
@Injectable()
export class CaseExportsService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  private newPdf(title: string, d: Details, timeZone: string) {
    return new CasePdf({ title, caseId: d.id, patient: d.patient, timeZone });
  }

  /** Patient, source, status, recommendation and outcome: the header of the case and summary PDFs. */
  private caseHeader(pdf: CasePdf, d: Details) {
    const p = d.patient;
    pdf.heading('Patient');
    pdf.keyValues([
      ['Name', fullName(p)],
      ['Reference', patientReference(p.id)],
      ['Date of birth', p.dateOfBirth ? formatDay(`${p.dateOfBirth}T12:00:00Z`) : ''],
      ['Gender', words(p.gender)],
      ['Address', [p.address?.streetLine, p.address?.apartmentNumber, p.address?.city, p.address?.state, p.address?.zipCode].filter(Boolean).join(', ')],
    ]);
    pdf.heading('Case');
    pdf.keyValues([
      ['Reference', caseReference(d.id)],
      ['Created', pdf.dateTime(d.createdAt)],
      ['Closed', pdf.dateTime(d.closedAt)],
      ['Source facility', d.sourceFacility?.name],
      ['Source division', d.sourceDivision?.name],
      ['Status', d.statusLabel],
      ['Main recommendation', words(d.mainRecommendation)],
      ['Criteria', (d.criteria ?? []).map(words).join(', ')],
      ['Recommendation note', d.recommendationNote],
      ['Outcome', d.outcome ? words(d.outcome.type) || 'None' : ''],
      ['Outcome note', d.outcome?.note],
      ['Referring facility', d.outcome?.referringFacility ? `${d.outcome.referringFacility.facilityName} / ${d.outcome.referringFacility.divisionName}` : ''],
    ]);
  }

  /** Notes the user may read: visible ones, and hidden ones for ITP staff. */
  async notes(caseId: number, includeHidden: boolean) {
    return select<{ id: number; note: string; hidden: boolean; createdAt: string; modifiedAt: string; author: string; authorOrganizationType: string | null }>(
      this.sequelize,
      `SELECT n.id, n.note, n.hidden, n.created_at AS "createdAt", n.modified_at AS "modifiedAt",
              coalesce(u.first_name || ' ' || u.last_name, '') AS author, n.author_organization_type AS "authorOrganizationType"
         FROM case_notes n LEFT JOIN users u ON u.id = n.created_by
        WHERE n.case_id = $1 AND n.deleted_at IS NULL AND (NOT n.hidden OR $2)
        ORDER BY n.created_at, n.id`,
      [caseId, includeHidden],
    );
  }

  private writeNotes(pdf: CasePdf, notes: Awaited<ReturnType<CaseExportsService['notes']>>) {
    pdf.heading('Case notes');
    if (!notes.length) return pdf.paragraph('No case notes', { muted: true });
    for (const n of notes) {
      pdf.subheading(`${n.author || 'Unknown author'} · ${pdf.dateTime(n.createdAt)}${n.hidden ? ' · hidden' : ''}`);
      pdf.paragraph(n.note);
    }
  }

  private evaluations(caseId: number) {
    return evaluationRows(this.sequelize, caseId);
  }

  private writeEvaluations(pdf: CasePdf, rows: Array<Record<string, any>>) {
    pdf.heading('Evaluations');
    const evaluated = rows.filter((r) => r.hasEvaluation);
    if (!rows.length || !evaluated.length) pdf.paragraph('No evaluations', { muted: true });
    for (const r of rows) {
      if (!r.hasEvaluation) {
        pdf.subheading(`Request ${words(r.type)} · ${r.status} · ${pdf.dateTime(r.createdAt)}`);
        pdf.keyValues([['Provider', r.provider], ['Evaluation', 'Not started']]);
        continue;
      }
      writeEvaluation(pdf, r);
    }
  }

  /**
   * GET /{id}/requests/{requestId}/evaluation/pdf (spec 01 §7): one request's evaluation as the
   * provider saw it, with the provider's signature line. NTFND when the request has none.
   */
  async evaluationPdf(user: UserContext, caseId: number, requestId: number, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const row = (await this.evaluations(caseId)).find((r) => r.id === requestId);
    if (!row || !row.hasEvaluation) throw new CodedError(ErrorCode.NotFound, undefined, undefined, 'The request has no evaluation');
    const pdf = this.newPdf('Evaluation', d, timeZone);
    writeEvaluation(pdf, row);
    pdf.end();
    return { stream: pdf.doc as unknown as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }

  /** Patient files of the case the user may see; with fileIds only those (unknown ids → null). */
  async files(caseId: number, includeHidden: boolean, fileIds: number[] | null) {
    const rows = await select<{ id: number; title: string; fileName: string; storageKey: string; hidden: boolean; submittedOn: string }>(
      this.sequelize,
      `SELECT id, title, file_name AS "fileName", storage_key AS "storageKey", hidden, submitted_on AS "submittedOn"
         FROM patient_files WHERE case_id = $1 AND (NOT hidden OR $2) ORDER BY submitted_on, id`,
      [caseId, includeHidden],
    );
    if (!fileIds) return rows;
    const known = new Set(rows.map((r) => r.id));
    if (fileIds.some((id) => !known.has(id))) return null;
    return rows.filter((r) => fileIds.includes(r.id));
  }

  /** GET /{id}/pdf: header, the ticked sections, then the stored patient PDFs appended. */
  async casePdf(user: UserContext, caseId: number, o: PdfExportOptions, access: { hiddenNotes: boolean; hiddenFiles: boolean; files: boolean }, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const evaluations = o.includeEvaluations ? await this.evaluations(caseId) : null;
    const notes = o.includeCaseNotes ? await this.notes(caseId, access.hiddenNotes) : null;
    const files = o.includePatientFiles && access.files ? await this.files(caseId, access.hiddenFiles, o.fileIds) : null;
    if (o.includePatientFiles && access.files && files === null) return { unknownFiles: true as const };

    const pdf = this.newPdf('Case export', d, timeZone);
    this.caseHeader(pdf, d);
    if (evaluations) this.writeEvaluations(pdf, evaluations);
    if (notes) this.writeNotes(pdf, notes);
    if (o.includePatientFiles) {
      pdf.heading('Patient files');
      if (!files || !files.length) pdf.paragraph('No patient files', { muted: true });
      else {
        pdf.paragraph('The files below follow on the next pages.', { muted: true });
        pdf.table(
          [{ header: 'Title', width: 0.4 }, { header: 'File name', width: 0.35 }, { header: 'Submitted on', width: 0.25 }],
          files.map((f) => [f.title, f.fileName, pdf.dateTime(f.submittedOn)]),
        );
      }
    }
    pdf.end();
    if (!files || !files.length) return { stream: pdf.doc as unknown as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
    return { stream: await this.appendFiles(pdf.doc, files), patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }

  /**
   * Appends the stored PDFs after the generated pages. pdf-lib works on whole documents, so each
   * stored file is read on its own (and let go before the next); the merged result is sent as one body.
   */
  private async appendFiles(generated: PDFKit.PDFDocument, files: Array<{ title: string; fileName: string; storageKey: string }>): Promise<Readable> {
    const head = await streamToBuffer(generated as unknown as Readable);
    const out = await LibPdf.load(head);
    const font = await out.embedFont(StandardFonts.Helvetica);
    for (const f of files) {
      let added = false;
      try {
        const stored = await this.storage.get(PATIENT_FILES_AREA, f.storageKey);
        if (stored) {
          const src = await LibPdf.load(await streamToBuffer(stored.stream), { ignoreEncryption: true });
          const pages = await out.copyPages(src, src.getPageIndices());
          pages.forEach((p) => out.addPage(p));
          added = pages.length > 0;
        }
      } catch {
        added = false;
      }
      if (!added) {
        const page = out.addPage([612, 792]);
        page.drawText(`The patient file "${sanitizeWinAnsi(f.title)}" (${sanitizeWinAnsi(f.fileName)}) could not be included.`, { x: 50, y: 720, size: 11, font });
      }
    }
    const bytes = await out.save();
    return Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  }

  /** GET /{id}/summary/pdf: one page. */
  async summaryPdf(user: UserContext, caseId: number, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const activity = (await this.cases.activity(caseId)) as Array<Record<string, any>>;
    const pdf = this.newPdf('Case summary', d, timeZone);
    this.caseHeader(pdf, d);
    pdf.keyValues([
      ['Time elapsed', durationTwoUnits((d.timeElapsedSeconds ?? 0) * 1000)],
      ['Locating services time', d.locatingServicesSeconds == null ? '' : durationTwoUnits(d.locatingServicesSeconds * 1000)],
    ]);
    pdf.heading('Status history');
    const columns = [{ header: 'Status', width: 0.34 }, { header: 'Initiator', width: 0.22 }, { header: 'Started at', width: 0.22 }, { header: 'Duration', width: 0.22 }];
    const rows = activity
      .filter((a) => !a.undone)
      .map((a) => [words(a.status), a.initiatorName ?? '', pdf.dateTime(a.startedAt), durationTwoUnits(a.durationSeconds * 1000)]);
    // One page: the newest status changes that fit on it, at most 12 (the activity report has them all).
    const fit = Math.min(12, pdf.rowsThatFit(columns, rows, 20));
    const shown = fit ? rows.slice(-fit) : [];
    if (rows.length > shown.length) pdf.paragraph(`Latest ${shown.length} of ${rows.length} status changes`, { muted: true });
    pdf.table(columns, shown);
    pdf.end();
    return { stream: pdf.doc as unknown as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }

  /** GET /{id}/notes/pdf: every note the user may read, with author and time. */
  async notesPdf(user: UserContext, caseId: number, hiddenNotes: boolean, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const notes = await this.notes(caseId, hiddenNotes);
    const pdf = this.newPdf('Case notes', d, timeZone);
    this.writeNotes(pdf, notes);
    pdf.end();
    return { stream: pdf.doc as unknown as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }

  /** GET /{id}/activity/report/pdf. */
  async activityReportPdf(user: UserContext, caseId: number, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const report = await this.cases.activityReport(caseId);
    const pdf = this.newPdf('Case activity report', d, timeZone);
    pdf.keyValues([['Total case time', durationTwoUnits(report.totalSeconds * 1000)]]);
    for (const g of report.groups) {
      pdf.heading(`${words(g.group)} (${durationTwoUnits(g.totalSeconds * 1000)})`);
      pdf.table(ACTIVITY_COLUMNS.slice(1).map((c, i) => ({ header: c, width: [0.26, 0.2, 0.2, 0.2, 0.14][i] })), g.activities.map((a) => activityCells(a, pdf.timeZone).slice(1)));
    }
    pdf.end();
    return { stream: pdf.doc as unknown as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }

  /** GET /{id}/activity/report/csv: one row per activity, with a header row. */
  async activityReportCsv(user: UserContext, caseId: number, timeZone: string) {
    const d: Details = await this.cases.details(user, caseId);
    const report = await this.cases.activityReport(caseId);
    const csv = stringify({ header: true, columns: ACTIVITY_COLUMNS });
    for (const g of report.groups) for (const a of g.activities) csv.write(activityCells(a, timeZone));
    csv.end();
    return { stream: csv as Readable, patientId: d.patient.id, facilityId: d.sourceFacility.id };
  }
}

/**
 * One request's evaluation: the request, diagnoses, billing codes, the recommendation and its
 * criteria and note, the questions and visible answers of the form version it was answered on
 * (a hidden question's answer is not printed), then the provider's signature line.
 */
export function writeEvaluation(pdf: CasePdf, r: Record<string, any>) {
  pdf.subheading(`Request ${words(r.type)} · ${r.status} · ${pdf.dateTime(r.createdAt)}`);
  pdf.keyValues([
    ['Provider', r.provider],
    ['Evaluated at', pdf.dateTime(r.evaluatedAt)],
    ['Modified at', pdf.dateTime(r.modifiedAt)],
    ['Primary diagnosis', r.primaryDiagnosis ? `${r.primaryDiagnosis} ${r.primaryDiagnosisDescription ?? ''}` : ''],
    ['Secondary diagnoses', r.secondaryDiagnoses],
    ['Billing codes', r.billingCodes],
    ['Main recommendation', words(r.mainRecommendation)],
    ['Criteria', (r.criteria ?? []).map(words).join(', ')],
    ['Recommendation note', r.recommendationNote],
  ]);
  const answers = Array.isArray(r.answers) ? r.answers : [];
  // The questions as the provider saw them (the form version the evaluation was answered on); an
  // evaluation without its form version prints no answers rather than names a provider never saw.
  const rows: string[][] = Array.isArray(r.formItems)
    ? answeredQuestions(r.formItems, answersFromList(answers)).map((q) => (q.heading ? [q.label.toUpperCase(), ''] : [q.label, q.answer]))
    : [];
  if (rows.length) {
    pdf.doc.moveDown(0.6);
    pdf.table([{ header: 'Question', width: 0.5 }, { header: 'Answer', width: 0.5 }], rows);
  }
  pdf.signature(
    r.completedAt
      ? `Electronically signed by ${[r.provider, r.providerType].filter(Boolean).join(', ')} · NPI ${r.providerNpi || '—'} · Completed at ${pdf.dateTime(r.completedAt)}`
      : `${r.provider || 'The provider'} · NPI ${r.providerNpi || '—'} · Not completed (draft)`,
  );
}

/** Each request of a case with its evaluation (when one was saved) and the form version it was answered on. */
export async function evaluationRows(sequelize: Sequelize, caseId: number) {
  return select<Record<string, any>>(
    sequelize,
    `SELECT r.id, r.type, r.status, r.created_at AS "createdAt", r.completed_at AS "completedAt",
            coalesce(u.first_name || ' ' || u.last_name, '') AS provider, u.provider_info->>'npi' AS "providerNpi",
            u.provider_info->>'providerType' AS "providerType",
            e.request_id IS NOT NULL AS "hasEvaluation", e.created_at AS "evaluatedAt", e.modified_at AS "modifiedAt",
            e.primary_diagnosis AS "primaryDiagnosis", pd.description AS "primaryDiagnosisDescription",
            (SELECT string_agg(d.code || ' ' || d.description, '; ' ORDER BY d.code) FROM diagnoses d WHERE d.code = ANY(e.secondary_diagnoses)) AS "secondaryDiagnoses",
            e.main_recommendation AS "mainRecommendation", e.criteria, e.recommendation_note AS "recommendationNote",
            e.answers, v.items AS "formItems",
            (SELECT string_agg(b.code || ' ' || b.description, '; ' ORDER BY b.code) FROM billing_codes b WHERE b.id = ANY(e.billing_code_ids)) AS "billingCodes"
       FROM requests r
       LEFT JOIN users u ON u.id = r.evaluation_provider_id
       LEFT JOIN evaluations e ON e.request_id = r.id
       LEFT JOIN evaluation_form_versions v ON v.evaluation_form_id = e.evaluation_form_id AND v.version = e.evaluation_form_version
       LEFT JOIN diagnoses pd ON pd.code = e.primary_diagnosis
      WHERE r.case_id = $1 ORDER BY r.created_at, r.id`,
    [caseId],
  );
}

/**
 * A completed evaluation as the PDF filed in the EHR (spec 02 §2 "upload after completion"): the
 * title block and the evaluation with its signature line, as the evaluation export prints it.
 * Null when the request has no evaluation.
 */
export async function evaluationDocumentPdf(sequelize: Sequelize, caseId: number, requestId: number, title: string, timeZone: string): Promise<Buffer | null> {
  const row = (await evaluationRows(sequelize, caseId)).find((r) => r.id === requestId);
  if (!row?.hasEvaluation) return null;
  const [patient] = await select<{ id: number; firstName: string; lastName: string }>(
    sequelize,
    'SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName" FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1',
    [caseId],
  );
  if (!patient) return null;
  const pdf = new CasePdf({ title, caseId, patient, timeZone });
  writeEvaluation(pdf, row);
  pdf.end();
  return streamToBuffer(pdf.doc as unknown as Readable);
}

export const ACTIVITY_COLUMNS = ['Status group', 'Status', 'Initiator', 'Started at', 'Ended at', 'Duration'];

function activityCells(a: Record<string, any>, timeZone: string): string[] {
  const t = (v: unknown) => (v ? formatPerformedAt(new Date(v as string), timeZone) : '');
  return [words(a.statusGroup), words(a.status), a.initiatorName ?? '', t(a.startedAt), t(a.endedAt), durationTwoUnits((a.durationSeconds ?? 0) * 1000)];
}

/** pdf-lib's standard fonts only encode WinAnsi: other characters become '?'. */
const sanitizeWinAnsi = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}
