/** The case's exports (spec 01 §2 export to PDF, §3 activity report, §6 summary PDF): placed by the case page. */
export { ExportPdfDialog, ExportPdfButton, type ExportPdfDialogProps } from './ExportPdfDialog';
export { ActivityReportDialog, ActivityReportButton, statusWords, type ActivityReportDialogProps } from './ActivityReportDialog';
export { SummaryPdfButton, NotesPdfButton } from './ExportButtons';
export { casePdfUrl, exportUrls } from '../../data/methods/exports';
