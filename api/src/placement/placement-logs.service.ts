import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { stringify } from 'csv-stringify';
import PDFDocument from 'pdfkit';
import type { Readable } from 'stream';
import { ErrorCode, CodedError, DivisionType, OUTCOME_BY_REFERRING_TYPE, UserType, caseReference, logDateProblems, type UserContext } from '@crisis/forms';
import { formatPerformedAt } from '../audit/audit-log.service';
import { invalid, notFound } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { select } from '../reference/reference-sql';
import { CasePdf, PRODUCT_NAME } from '../case-exports/pdf-layout';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService } from '../cases/cases.service';
import { PlacementService } from './placement.service';

export interface LogFilter {
  from?: string | null;
  to?: string | null;
  facilityIds?: number[] | null;
  results?: string[] | null;
  coordinatorIds?: number[] | null;
  patientName?: string | null;
}
export interface LogSort {
  field: string;
  order: 'ASC' | 'DESC';
}

const words = (s: string | null | undefined) => (s ? s.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2') : '');

export const CASE_LOG_COLUMNS = ['Date contact', 'Coordinator', 'Referring facility', 'Division', 'Spoke with', 'Result', 'Note', 'Follow-up', 'Undone'];
export const DIVISION_LOG_COLUMNS = ['Date contact', 'User', 'Spoke with', 'Patients', 'Result', 'Note', 'Follow-up', 'Undone'];

/**
 * The placement logs (spec 02 §2 full log and division log, §7 their CSV / PDF exports) and the
 * referring side's accepted cases (spec 02 §2 dashboard "accepted-cases table with a close action").
 */
@Injectable()
export class PlacementLogsService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly placement: PlacementService,
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Case log exports
  // -------------------------------------------------------------------------------------------

  private async caseLogRows(user: UserContext, caseId: number, f: LogFilter, sort: LogSort, timeZone: string) {
    // Exports hold every call of the search, not one page.
    const { rows } = (await this.placement.caseLog(user, caseId, f, sort, { offset: 0, limit: 100_000 })) as { rows: Array<Record<string, any>> };
    const t = (v: unknown) => (v ? formatPerformedAt(new Date(v as string), timeZone) : '');
    return rows.map((r) => [
      t(r.createdAt),
      r.crisisCoordinator ?? '',
      r.referringFacilityDivisionInfo?.facilityName ?? '',
      r.referringFacilityDivisionInfo?.divisionName ?? '',
      r.spokeWith ?? '',
      words(r.result),
      r.note ?? '',
      t(r.callbackAt),
      r.undone ? 'Yes' : 'No',
    ]);
  }

  private async casePatient(caseId: number) {
    const [p] = await select<{ id: number; firstName: string; lastName: string; facilityId: number }>(
      this.sequelize,
      `SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", c.source_facility_id AS "facilityId"
         FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1`,
      [caseId],
    );
    if (!p) throw notFound();
    return p;
  }

  async caseLogCsv(user: UserContext, caseId: number, f: LogFilter, sort: LogSort, timeZone: string) {
    const cells = await this.caseLogRows(user, caseId, f, sort, timeZone);
    const p = await this.casePatient(caseId);
    const csv = stringify({ header: true, columns: CASE_LOG_COLUMNS });
    for (const r of cells) csv.write(r);
    csv.end();
    return { stream: csv as Readable, patientId: p.id, facilityId: p.facilityId };
  }

  async caseLogPdf(user: UserContext, caseId: number, f: LogFilter, sort: LogSort, timeZone: string) {
    const cells = await this.caseLogRows(user, caseId, f, sort, timeZone);
    const p = await this.casePatient(caseId);
    const pdf = new CasePdf({ title: 'Placement log', caseId, patient: p, timeZone });
    pdf.paragraph(`${cells.length} call${cells.length === 1 ? '' : 's'}`, { muted: true });
    pdf.table(
      [
        { header: 'Date contact', width: 0.12 },
        { header: 'Coordinator', width: 0.11 },
        { header: 'Referring facility', width: 0.14 },
        { header: 'Division', width: 0.11 },
        { header: 'Spoke with', width: 0.09 },
        { header: 'Result', width: 0.11 },
        { header: 'Note', width: 0.14 },
        { header: 'Follow-up', width: 0.12 },
        { header: 'Undone', width: 0.06 },
      ],
      cells.map((r) => r.map(sanitize)),
    );
    pdf.end();
    return { stream: pdf.doc as unknown as Readable, patientId: p.id, facilityId: p.facilityId };
  }

  // -------------------------------------------------------------------------------------------
  // Division log
  // -------------------------------------------------------------------------------------------

  private async division(divisionId: number) {
    const [d] = await select<{ id: number; name: string; facilityId: number; facilityName: string }>(
      this.sequelize,
      `SELECT d.id, d.name, f.id AS "facilityId", f.name AS "facilityName"
         FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = $1 AND d.type = 'Referring'`,
      [divisionId],
    );
    if (!d) throw notFound();
    return d;
  }

  /**
   * GET division/{id}/log: the calls made to one referring division, newest first; the calls of
   * one bulk submission (one bulk_id, also the hold applied to the division's other cases) are one
   * entry listing its patients.
   */
  async divisionLog(divisionId: number, f: LogFilter, sort: LogSort, page: { offset: number; limit: number } | null) {
    const problems = logDateProblems(f);
    if (problems.length) throw invalid(problems);
    await this.division(divisionId);
    const bind: unknown[] = [divisionId];
    const where = ['pc.division_id = $1'];
    if (f.from) where.push(`pc.created_at >= $${bind.push(f.from)}::timestamptz`);
    if (f.to) where.push(`pc.created_at <= $${bind.push(f.to)}::timestamptz`);
    let having = '';
    if (f.patientName) {
      const like = `%${f.patientName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      having = `HAVING bool_or((p.first_name || ' ' || p.last_name) ILIKE $${bind.push(like)} OR (p.last_name || ' ' || p.first_name) ILIKE $${bind.length})`;
    }
    const sortSql: Record<string, string> = {
      dateContact: 'e.created_at',
      createdAt: 'e.created_at',
      user: 'lower(e.user_name)',
      result: 'e.result',
      callbackAt: 'e.callback_at',
    };
    const order = `${sortSql[sort.field] ?? 'e.created_at'} ${sort.order === 'ASC' ? 'ASC' : 'DESC'} NULLS LAST, e.first_id DESC`;
    const paging = page ? `LIMIT $${bind.push(page.limit)} OFFSET $${bind.push(page.offset)}` : '';
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `WITH e AS (
         SELECT coalesce(pc.bulk_id::text, pc.id::text) AS id, min(pc.id) AS first_id, min(pc.created_at) AS created_at,
                (array_agg(pc.spoke_with ORDER BY pc.id) FILTER (WHERE pc.spoke_with IS NOT NULL))[1] AS spoke_with,
                (array_agg(pc.created_by_name ORDER BY pc.id))[1] AS user_name,
                (array_agg(pc.created_by ORDER BY pc.id))[1] AS user_id,
                (array_agg(pc.result ORDER BY pc.id))[1] AS result,
                (array_agg(pc.note ORDER BY pc.id))[1] AS note,
                max(pc.callback_at) AS callback_at,
                bool_and(pc.undone_at IS NOT NULL) AS undone,
                pc.bulk_id,
                json_agg(json_build_object('caseId', c.id, 'name', p.first_name || ' ' || p.last_name) ORDER BY pc.id) AS patients
           FROM placement_calls pc JOIN cases c ON c.id = pc.case_id JOIN patients p ON p.id = c.patient_id
          WHERE ${where.join(' AND ')}
          GROUP BY coalesce(pc.bulk_id::text, pc.id::text), pc.bulk_id
          ${having}
       )
       SELECT e.id, e.created_at AS "createdAt", e.spoke_with AS "spokeWith", json_build_object('id', e.user_id, 'name', e.user_name) AS "user",
              e.patients, e.result, e.note, e.callback_at AS "callbackAt", e.undone, e.bulk_id AS "bulkId", count(*) OVER ()::int AS total
         FROM e ORDER BY ${order} ${paging}`,
      bind,
    );
    const total = rows[0]?.total ?? 0;
    // A patient appears once per entry (a bulk hold may have written one call per task).
    const entries = rows.map(({ total: _t, patients, ...r }) => ({
      ...r,
      patients: (patients as Array<{ caseId: number; name: string }>).filter((p, i, all) => all.findIndex((q) => q.caseId === p.caseId) === i),
    }));
    return { rows: entries, total };
  }

  private divisionCells(rows: Array<Record<string, any>>, timeZone: string) {
    const t = (v: unknown) => (v ? formatPerformedAt(new Date(v as string), timeZone) : '');
    return rows.map((r) => [
      t(r.createdAt),
      r.user?.name ?? '',
      r.spokeWith ?? '',
      (r.patients as Array<{ caseId: number; name: string }>).map((p) => `${p.name} (${caseReference(p.caseId)})`).join('; '),
      words(r.result),
      r.note ?? '',
      t(r.callbackAt),
      r.undone ? 'Yes' : 'No',
    ]);
  }

  async divisionLogCsv(divisionId: number, f: LogFilter, sort: LogSort, timeZone: string) {
    const { rows } = await this.divisionLog(divisionId, f, sort, null);
    const csv = stringify({ header: true, columns: DIVISION_LOG_COLUMNS });
    for (const r of this.divisionCells(rows, timeZone)) csv.write(r);
    csv.end();
    return csv as Readable;
  }

  async divisionLogPdf(divisionId: number, f: LogFilter, sort: LogSort, timeZone: string) {
    const d = await this.division(divisionId);
    const { rows } = await this.divisionLog(divisionId, f, sort, null);
    const doc = new PDFDocument({ size: 'LETTER', layout: 'landscape', margins: { top: 40, bottom: 50, left: 40, right: 40 }, info: { Title: `Division log ${d.name}`, Author: PRODUCT_NAME } });
    const width = doc.page.width - 80;
    doc.fillColor('#555555').font('Helvetica').fontSize(9).text(PRODUCT_NAME);
    doc.fillColor('black').font('Helvetica-Bold').fontSize(18).text(sanitize(`Division log: ${d.facilityName} / ${d.name}`));
    doc.font('Helvetica').fontSize(9).fillColor('#555555').text(`Generated at ${formatPerformedAt(new Date(), timeZone)}`);
    const range = [f.from ? `from ${formatPerformedAt(new Date(f.from), timeZone)}` : '', f.to ? `to ${formatPerformedAt(new Date(f.to), timeZone)}` : '', f.patientName ? `patient "${f.patientName}"` : '']
      .filter(Boolean)
      .join(', ');
    if (range) doc.text(sanitize(`Search: ${range}`));
    doc.fillColor('black').moveDown(0.5);
    const widths = [0.12, 0.11, 0.1, 0.2, 0.11, 0.18, 0.12, 0.06].map((w) => w * width);
    const line = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
      const h = Math.max(...cells.map((c, i) => doc.heightOfString(c || '', { width: widths[i] - 6 })));
      if (doc.y + h + 4 > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      let x = doc.page.margins.left;
      cells.forEach((c, i) => {
        doc.text(c || '', x, y, { width: widths[i] - 6 });
        x += widths[i];
      });
      doc.y = y + h + 3;
    };
    line(DIVISION_LOG_COLUMNS, true);
    for (const r of this.divisionCells(rows, timeZone)) line(r.map(sanitize), false);
    if (!rows.length) doc.font('Helvetica').fontSize(10).text('No calls', doc.page.margins.left);
    doc.end();
    return { stream: doc as unknown as Readable, division: d };
  }

  // -------------------------------------------------------------------------------------------
  // Referring facilities: accepted cases
  // -------------------------------------------------------------------------------------------

  /** The referring divisions a user acts for: her own (facility user), her facility's (facility admin). */
  private divisionPredicate(user: UserContext, bind: unknown[]): string {
    if (user.role === UserType.FacilityUser && user.divisionType === DivisionType.Referring) return `a.division_id = $${bind.push(user.divisionId ?? 0)}`;
    if (user.role === UserType.FacilityAdmin) return `ad.facility_id = $${bind.push(user.facilityId ?? 0)}`;
    return 'false';
  }

  async acceptedCases(user: UserContext, q: ListQuery<unknown>) {
    const bind: unknown[] = [];
    const pred = this.divisionPredicate(user, bind);
    const sortSql: Record<string, string> = {
      patientAcceptedCreatedAt: 'a.accepted_at',
      acceptedAt: 'a.accepted_at',
      patient: 'lower(p.last_name || p.first_name)',
      sourceFacility: 'lower(sf.name)',
      status: 'c.status',
    };
    const order = `${sortSql[q.sortField] ?? 'a.accepted_at'} ${q.sortOrder === 'DESC' ? 'DESC' : 'ASC'}, c.id`;
    const limit = bind.push(q.limit);
    const offset = bind.push(q.offset);
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `SELECT c.id, c.id AS "caseId", c.status, json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name,
              'dateOfBirth', p.date_of_birth::text) AS patient,
              json_build_object('id', sf.id, 'name', sf.name) AS "sourceFacility",
              a.accepted_at AS "acceptedAt", a.division_id AS "divisionId", ad.name AS "divisionName", count(*) OVER ()::int AS total
         FROM case_referring_access a
         JOIN divisions ad ON ad.id = a.division_id
         JOIN cases c ON c.id = a.case_id
         JOIN patients p ON p.id = c.patient_id
         JOIN facilities sf ON sf.id = c.source_facility_id
        WHERE a.accepted_at IS NOT NULL AND a.removed_at IS NULL AND c.status <> 'Closed' AND ${pred}
        ORDER BY ${order} LIMIT $${limit} OFFSET $${offset}`,
      bind,
    );
    const total = rows[0]?.total ?? 0;
    return { rows: rows.map(({ total: _t, ...r }) => r), total };
  }

  /**
   * PUT /api/cases/{id}/referring/confirm: the referring facility confirms the patient arrived; the
   * case is closed (through the case workflow) with the transfer outcome of the accepting division.
   */
  async confirmArrival(user: UserContext, caseId: number) {
    await this.cases.findInScope(user, caseId);
    const bind: unknown[] = [caseId];
    const pred = this.divisionPredicate(user, bind);
    const [row] = await select<{ division_id: number; referring_type: string | null; status: string }>(
      this.sequelize,
      `SELECT a.division_id, ad.referring_type, c.status
         FROM case_referring_access a JOIN divisions ad ON ad.id = a.division_id JOIN cases c ON c.id = a.case_id
        WHERE a.case_id = $1 AND a.accepted_at IS NOT NULL AND a.removed_at IS NULL AND ${pred}
        ORDER BY a.accepted_at DESC LIMIT 1`,
      bind,
    );
    if (!row) throw new CodedError(ErrorCode.CaseNotAccepted, { caseId }, undefined, 'The patient was not accepted by your division');
    if (row.status === 'Closed') throw new CodedError(ErrorCode.CaseIsClosed, { caseId }, undefined, 'The case is closed');
    const caseOutcomeType = OUTCOME_BY_REFERRING_TYPE[row.referring_type ?? ''] ?? 'Transferred_MentalHealthInpatient';
    const result = await this.commands.run(user, caseId, {
      kind: 'close',
      outcomeRequired: true,
      caseOutcomeType,
      referringDivisionId: row.division_id,
      note: null,
    });
    return { caseId, status: result.state.status, caseOutcomeType, divisionId: row.division_id };
  }
}

/** pdfkit's standard fonts only encode WinAnsi: other characters become '?'. */
const sanitize = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u00ff\n]/g, '?');
