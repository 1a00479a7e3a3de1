import PDFDocument from 'pdfkit';
import { caseReference, patientReference } from '@crisis/forms';
import { formatPerformedAt } from '../audit/audit-log.service';

/** The product name printed at the top of every export. */
export const PRODUCT_NAME = 'Crisis Placement Platform';

export interface TitleBlock {
  /** What the document is: 'Case export', 'Case summary', 'Case notes', 'Case activity report'. */
  title: string;
  caseId: number;
  patient: { id: number; firstName: string; lastName: string };
  /** IANA zone in which the times are printed. */
  timeZone: string;
  generatedAt?: Date;
}

const MARGIN = 50;
const GREY = '#555555';

/**
 * The shared look of every case export (spec 01 §2 export to PDF, summary, notes, activity report):
 * a title block (product, document title, case reference '#000123', patient name and reference,
 * generated-at time MM/dd/yyyy hh:mm aa), section headings, key/value tables, plain tables and
 * "Page n of m" footers. The document is a pdfkit stream: pipe it to the response and call end().
 */
export class CasePdf {
  readonly doc: PDFKit.PDFDocument;
  readonly timeZone: string;

  constructor(private readonly block: TitleBlock) {
    this.timeZone = block.timeZone;
    // bufferPages keeps the page objects (not the output) until end(), for the "Page n of m" footers.
    this.doc = new PDFDocument({
      size: 'LETTER',
      margins: { top: MARGIN, bottom: MARGIN + 20, left: MARGIN, right: MARGIN },
      bufferPages: true,
      info: { Title: `${block.title} ${caseReference(block.caseId)}`, Author: PRODUCT_NAME, Creator: PRODUCT_NAME },
    });
    this.titleBlock();
  }

  /** MM/dd/yyyy hh:mm aa in the export's time zone; '' for no value. */
  dateTime(v: Date | string | null | undefined): string {
    return v ? formatPerformedAt(new Date(v), this.timeZone) : '';
  }

  private get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private titleBlock() {
    const { doc, block } = this;
    const p = block.patient;
    doc.fillColor(GREY).font('Helvetica').fontSize(9).text(PRODUCT_NAME, { align: 'left' });
    doc.fillColor('black').font('Helvetica-Bold').fontSize(18).text(`${block.title} ${caseReference(block.caseId)}`);
    doc.font('Helvetica').fontSize(11).text(`Patient: ${p.firstName} ${p.lastName} (${patientReference(p.id)})`);
    doc.fillColor(GREY).fontSize(9).text(`Generated at ${this.dateTime(block.generatedAt ?? new Date())}`);
    doc.fillColor('black');
    const y = doc.y + 6;
    doc.moveTo(doc.page.margins.left, y).lineTo(doc.page.margins.left + this.width, y).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.y = y + 10;
  }

  /** Starts a new page when less than `needed` points are left. */
  ensureSpace(needed: number) {
    const bottom = this.doc.page.height - this.doc.page.margins.bottom;
    if (this.doc.y + needed > bottom) this.doc.addPage();
  }

  heading(text: string) {
    this.ensureSpace(40);
    this.doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor('black').text(text, this.doc.page.margins.left);
    this.doc.moveDown(0.3).font('Helvetica').fontSize(10);
  }

  subheading(text: string) {
    this.ensureSpace(30);
    this.doc.moveDown(0.4).font('Helvetica-Bold').fontSize(11).text(text, this.doc.page.margins.left);
    this.doc.moveDown(0.2).font('Helvetica').fontSize(10);
  }

  paragraph(text: string, opts: { muted?: boolean } = {}) {
    this.doc.font('Helvetica').fontSize(10).fillColor(opts.muted ? GREY : 'black').text(text || '', this.doc.page.margins.left, undefined, { width: this.width });
    this.doc.fillColor('black');
  }

  /** Two columns: label (bold) and value; empty values print as '—'. */
  keyValues(rows: Array<[string, string | number | null | undefined]>) {
    const { doc } = this;
    const left = doc.page.margins.left;
    const labelWidth = 160;
    const valueWidth = this.width - labelWidth - 10;
    doc.fontSize(10);
    for (const [label, raw] of rows) {
      const value = raw === null || raw === undefined || raw === '' ? '—' : String(raw);
      const h = Math.max(doc.font('Helvetica').heightOfString(value, { width: valueWidth }), doc.font('Helvetica-Bold').heightOfString(label, { width: labelWidth }));
      this.ensureSpace(h + 4);
      const y = doc.y;
      doc.font('Helvetica-Bold').text(label, left, y, { width: labelWidth });
      doc.font('Helvetica').text(value, left + labelWidth + 10, y, { width: valueWidth });
      doc.y = y + h + 3;
    }
    doc.x = left;
  }

  /** A signature line: a rule to sign on, the signer's line under it. */
  signature(text: string) {
    const { doc } = this;
    this.ensureSpace(50);
    const left = doc.page.margins.left;
    const y = doc.y + 24;
    doc.moveTo(left, y).lineTo(left + this.width * 0.6, y).lineWidth(0.7).strokeColor('#000000').stroke();
    doc.font('Helvetica').fontSize(9).fillColor('black').text(text, left, y + 4, { width: this.width });
    doc.moveDown(0.5);
    doc.x = left;
    doc.font('Helvetica').fontSize(10);
  }

  /** The height of a table row's tallest cell, in the table's font (set on the document). */
  private rowHeight(cells: string[], widths: number[], bold: boolean): number {
    this.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    return Math.max(...cells.map((c, i) => this.doc.heightOfString(c || '', { width: widths[i] - 6 })));
  }

  /**
   * How many of the last rows of a table fit on this page with its header and `reserve` points
   * left for a line before it (the one-page summary keeps the newest rows that fit).
   */
  rowsThatFit(columns: Array<{ header: string; width: number }>, rows: string[][], reserve: number): number {
    const { doc } = this;
    const widths = columns.map((c) => c.width * this.width);
    let room = doc.page.height - doc.page.margins.bottom - doc.y - reserve - (this.rowHeight(columns.map((c) => c.header), widths, true) + 3);
    let n = 0;
    for (let i = rows.length - 1; i >= 0; i--) {
      room -= this.rowHeight(rows[i], widths, false) + 3;
      if (room < 0) break;
      n++;
    }
    doc.font('Helvetica').fontSize(10);
    return n;
  }

  /** A table with a bold header row; column widths are fractions of the text width. */
  table(columns: Array<{ header: string; width: number }>, rows: string[][]) {
    const { doc } = this;
    const left = doc.page.margins.left;
    const widths = columns.map((c) => c.width * this.width);
    const line = (cells: string[], bold: boolean) => {
      const h = this.rowHeight(cells, widths, bold);
      this.ensureSpace(h + 4);
      const y = doc.y;
      let x = left;
      cells.forEach((c, i) => {
        doc.text(c || '', x, y, { width: widths[i] - 6 });
        x += widths[i];
      });
      doc.y = y + h + 3;
    };
    line(columns.map((c) => c.header), true);
    for (const r of rows) line(r, false);
    doc.x = left;
    doc.font('Helvetica').fontSize(10);
  }

  /** Writes the page footers and ends the stream. */
  end() {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing inside the bottom margin must not add a page
      doc.font('Helvetica').fontSize(8).fillColor(GREY)
        .text(`${caseReference(this.block.caseId)} · Page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 40, {
          width: this.width,
          align: 'center',
          lineBreak: false,
        });
      doc.page.margins.bottom = bottom;
    }
    doc.fillColor('black');
    doc.end();
  }
}

/** An IANA time zone from the query (default UTC); anything else is refused by the caller. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
