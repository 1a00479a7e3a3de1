import fs from 'fs';
import path from 'path';
import { parse } from 'csv-parse/sync';
import { caseReference, patientReference } from '@crisis/forms';
import { api } from '../support/api';
import { fillEvaluation } from '../support/cases';
import { db } from '../support/db';
import { download, pdfText } from '../support/files';
import { signIn, signInAs } from '../support/oidc-client';

/**
 * The case's exports (spec 01 §2 export to PDF, §3 activity report, §6 summary PDF, §7): each file
 * is downloaded, opened and read (text extracted from the PDF, the CSV parsed).
 */
describe('case exports', () => {
  let itp: string;
  let provider: string;
  let facilityUser: string;
  let facilityAdmin: string;
  let groupUser: string;
  let otherFacility: string;
  let caseId: number;
  let requestId: number;
  let patientId: number;
  let fileId: number;
  const lastName = 'Exportson';
  const firstName = `Pdf${Date.now().toString(36).replace(/\d/g, '').slice(0, 6) || 'X'}`;
  const filesDir = path.resolve(process.env.FILES_DIR || path.resolve(__dirname, '../../.data/files'));

  /** A minimal one-page PDF showing `text` (what a scanned patient document stands in for). */
  function minimalPdf(text: string): Buffer {
    const content = `BT /F1 14 Tf 72 700 Td (${text}) Tj ET`;
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    let out = '%PDF-1.4\n';
    const offsets: number[] = [];
    objects.forEach((o, i) => {
      offsets.push(Buffer.byteLength(out, 'latin1'));
      out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    });
    const xref = Buffer.byteLength(out, 'latin1');
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, 'latin1');
  }

  const put = (p: string, token: string, body?: unknown) => api('PUT', p, { token, body });

  beforeAll(async () => {
    itp = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    facilityUser = (await signInAs('Facility_User')).accessToken;
    facilityAdmin = (await signInAs('Facility_Admin')).accessToken;
    groupUser = (await signInAs('Group_User')).accessToken;
    otherFacility = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;

    const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    const d = await db.query(
      `SELECT f.id AS facility, max(d.id) FILTER (WHERE d.name = 'Emergency Department') AS ed
         FROM facilities f JOIN divisions d ON d.facility_id = f.id WHERE f.name = 'Tampa Bay General Hospital' GROUP BY f.id`,
    );
    const created = await api('POST', '/api/cases', {
      token: itp,
      body: {
        patient: {
          firstName,
          lastName,
          dateOfBirth: '1988-03-09',
          gender: 'Female',
          address: { streetLine: '5 Harbour Rd', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33602' },
        },
        sourceFacilityId: d.rows[0].facility,
        sourceDivisionId: d.rows[0].ed, // the facility user's division
        evaluationProviderId: providerId,
        contactPhoneNumber: '+18135550123',
        notificationSendingMethod: 'PhoneCall',
        requestType: 'Assessment',
        patientEpicId: 'E1002',
        encounterIdentifier: 'ENC-2002',
        uninsured: true,
      },
    });
    expect(created.body).toMatchObject({ id: expect.any(Number) });
    caseId = created.body.id;
    requestId = created.body.requestId;
    patientId = (await db.query('SELECT patient_id FROM cases WHERE id = $1', [caseId])).rows[0].patient_id;

    // Walk the case: provider opens it, evaluates, completes; then on hold and back.
    expect((await put(`/api/requests/${requestId}/in-progress`, provider)).status).toBe(200);
    expect((await put(`/api/requests/${requestId}/evaluation/start`, provider)).status).toBe(200);
    const evaluation = await fillEvaluation(provider, requestId, {
      recommendationNote: 'Needs an inpatient bed',
      answers: { present_illness: 'Poor sleep for a week' },
    });
    expect((await put(`/api/requests/${requestId}/evaluation/complete`, provider, evaluation)).status).toBe(200);
    const hold = await put(`/api/cases/${caseId}/status`, itp, { status: 'OnHold_Other', note: 'Waiting for the family' });
    expect(hold.status).toBe(200);
    expect((await put(`/api/cases/${caseId}/resume`, itp)).status).toBe(200);

    // Notes and a stored patient file, written directly (their own APIs are tested elsewhere).
    const author = (await db.query("SELECT id FROM users WHERE email = 'coordinator@itp.example.org'")).rows[0].id;
    await db.query(
      `INSERT INTO case_notes (case_id, note, hidden, created_by, author_organization_type, created_at)
       VALUES ($1, 'Visible note about transport', false, $2, 'ItpOrganization', now() - interval '2 minutes'),
              ($1, 'Hidden note for partner staff', true, $2, 'ItpOrganization', now() - interval '1 minute')`,
      [caseId, author],
    );
    const key = `export-test-${caseId}.pdf`;
    fs.mkdirSync(path.join(filesDir, 'patient-files'), { recursive: true });
    const stored = minimalPdf('Attached scan PFMARKER');
    fs.writeFileSync(path.join(filesDir, 'patient-files', key), stored);
    fileId = (
      await db.query(
        `INSERT INTO patient_files (case_id, patient_id, title, file_name, storage_key, size_bytes, submitted_by)
         VALUES ($1, $2, 'Discharge summary', 'discharge-summary.pdf', $3, $4, $5) RETURNING id`,
        [caseId, patientId, key, stored.length, author],
      )
    ).rows[0].id;
  });

  afterAll(() => db.end());

  it('exports the case PDF with evaluations, notes and the patient file appended', async () => {
    const res = await download(`/api/cases/${caseId}/pdf?includeEvaluations=true&includeCaseNotes=true&includePatientFiles=true`, itp);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="case-${caseReference(caseId).slice(1)}.pdf"`);
    const { text, pages } = await pdfText(res.bytes);
    expect(text).toContain('Crisis Placement Platform');
    expect(text).toContain(caseReference(caseId));
    expect(text).toContain(`${firstName} ${lastName}`);
    expect(text).toContain(patientReference(patientId));
    expect(text).toMatch(/Generated at \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)/);
    for (const h of ['Patient', 'Case', 'Evaluations', 'Case notes', 'Patient files']) expect(text).toContain(h);
    expect(text).toContain('Tampa Bay General Hospital');
    expect(text).toContain('Emergency Department');
    expect(text).toContain('Mental Health Inpatient');
    expect(text).toContain('Needs an inpatient bed');
    // The questions by their labels, as the provider saw them, with the answers.
    expect(text).toContain('History of present illness');
    expect(text).toContain('Poor sleep for a week');
    expect(text).toContain('Visible note about transport');
    expect(text).toContain('Hidden note for partner staff'); // ITP staff read hidden notes
    expect(text).toContain('Discharge summary');
    expect(text).toContain('PFMARKER'); // the stored file's page is appended
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/Page 1 of \d/);

    const audit = await db.query(
      "SELECT kind, success, values FROM audit_log WHERE main_action = 'Case.Export.Pdf' AND (values->>'caseId')::int = $1 ORDER BY id DESC LIMIT 1",
      [caseId],
    );
    expect(audit.rows[0]).toMatchObject({ kind: 'Read', success: true });
  });

  it('leaves out what is not ticked, and selects individual files', async () => {
    const res = await download(`/api/cases/${caseId}/pdf?includeCaseNotes=true`, facilityUser);
    expect(res.status).toBe(200);
    const { text } = await pdfText(res.bytes);
    expect(text).toContain('Case notes');
    expect(text).toContain('Visible note about transport');
    expect(text).not.toContain('Hidden note for partner staff'); // facility staff: visible notes only
    expect(text).not.toContain('Evaluations');
    expect(text).not.toContain('PFMARKER');

    const files = await download(`/api/cases/${caseId}/pdf?includePatientFiles=1&fileIds=${fileId}`, itp);
    expect(files.status).toBe(200);
    expect((await pdfText(files.bytes)).text).toContain('PFMARKER');
    const unknown = await download(`/api/cases/${caseId}/pdf?includePatientFiles=true&fileIds=999999`, itp);
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('INV');
  });

  it("refuses an export with nothing ticked: 'Please check at least one checkbox'", async () => {
    for (const q of ['', '?includeEvaluations=false&includeCaseNotes=false&includePatientFiles=false']) {
      const res = await api('GET', `/api/cases/${caseId}/pdf${q}`, { token: itp });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe('INV');
      expect(res.error?.defaultMessage).toBe('Please check at least one checkbox');
      expect(JSON.stringify(res.body)).toContain('Please check at least one checkbox');
    }
    const bad = await api('GET', `/api/cases/${caseId}/pdf?includeEvaluations=maybe`, { token: itp });
    expect(bad.status).toBe(400);
  });

  it('exports the one-page summary PDF with the status history', async () => {
    const res = await download(`/api/cases/${caseId}/summary/pdf?tz=America/New_York`, facilityAdmin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`case-${caseReference(caseId).slice(1)}-summary.pdf`);
    const { text, pages } = await pdfText(res.bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Case summary');
    expect(text).toContain(`${firstName} ${lastName}`);
    expect(text).toContain(caseReference(caseId));
    expect(text).toContain('Status history');
    expect(text).toContain('Locating services time');
    // Table cells wrap: compare with the whitespace flattened.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Recommendation Review - Waiting On Decision');
    expect(flat).toContain('On Hold - Other');
    expect(flat).toContain('Mental Health Inpatient');
  });

  it('exports the notes PDF with author and time', async () => {
    const res = await download(`/api/cases/${caseId}/notes/pdf`, itp);
    expect(res.status).toBe(200);
    const { text } = await pdfText(res.bytes);
    expect(text).toContain('Case notes');
    expect(text).toContain('Visible note about transport');
    expect(text).toContain('Hidden note for partner staff');
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)/);
    const author = (await db.query("SELECT first_name || ' ' || last_name AS n FROM users WHERE email = 'coordinator@itp.example.org'")).rows[0].n;
    expect(text).toContain(author);
    const facility = await download(`/api/cases/${caseId}/notes/pdf`, facilityUser);
    expect(facility.status).toBe(200);
    expect((await pdfText(facility.bytes)).text).not.toContain('Hidden note for partner staff');
  });

  it('exports the activity report as PDF and CSV, one CSV row per activity', async () => {
    const report = await api('GET', `/api/cases/${caseId}/activity/report`, { token: itp });
    expect(report.status).toBe(200);
    const activities = report.body.groups.flatMap((g: any) => g.activities);
    expect(activities.length).toBeGreaterThanOrEqual(3);

    const csv = await download(`/api/cases/${caseId}/activity/report/csv`, itp);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain(`case-${caseReference(caseId).slice(1)}-activity.csv`);
    const rows: string[][] = parse(csv.bytes.toString('utf8'));
    expect(rows[0]).toEqual(['Status group', 'Status', 'Initiator', 'Started at', 'Ended at', 'Duration']);
    expect(rows.length - 1).toBe(activities.length);
    for (const r of rows.slice(1)) {
      expect(r[3]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)$/);
      expect(r[5]).toMatch(/^(\d+[dhms])( \d+[dhms])?$/);
    }
    expect(rows.some((r) => r[1] === 'Recommendation Review - Waiting On Decision')).toBe(true);

    const pdf = await download(`/api/cases/${caseId}/activity/report/pdf`, itp);
    expect(pdf.status).toBe(200);
    const { text } = await pdfText(pdf.bytes);
    expect(text).toContain('Case activity report');
    expect(text).toContain('Total case time');
    expect(text).toContain(`${firstName} ${lastName}`);
    const flat = text.replace(/\s+/g, ' ');
    for (const r of rows.slice(1)) {
      expect(flat).toContain(r[1]);
      expect(flat).toContain(r[2]);
    }
    expect(text).toContain('Recommendation Review');
  });

  it('enforces roles and row scope', async () => {
    // Facility user: no summary PDF; everything else of her facility's case.
    expect((await download(`/api/cases/${caseId}/summary/pdf`, facilityUser)).status).toBe(403);
    expect((await download(`/api/cases/${caseId}/activity/report/csv`, facilityUser)).status).toBe(200);
    // Group user: no case at all.
    for (const p of ['pdf?includeCaseNotes=true', 'summary/pdf', 'notes/pdf', 'activity/report/pdf', 'activity/report/csv']) {
      expect((await download(`/api/cases/${caseId}/${p}`, groupUser)).status).toBe(403);
      // Another facility's user cannot open this case.
      expect((await download(`/api/cases/${caseId}/${p}`, otherFacility)).status).toBe(403);
    }
    expect((await download('/api/cases/999999999/notes/pdf', itp)).status).toBe(404);
    expect((await download('/api/cases/abc/activity/report/csv', itp)).status).toBe(404);
  });
});
