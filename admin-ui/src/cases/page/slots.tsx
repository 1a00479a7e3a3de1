/**
 * The cards of the case page that other modules provide (admin-ui/src/cases/cards, exports), in
 * one place: a card that is not built yet is replaced here by a PlaceholderCard (same props).
 */
export { CaseNotesCard } from '../cards/CaseNotesCard';
export { DecisionCard } from '../cards/DecisionCard';
export { FacilityMedicalInformationCard } from '../cards/FacilityMedicalInformationCard';
export { FilesCard } from '../cards/FilesCard';
export { InsuranceCard } from '../cards/InsuranceCard';
export { MedicalInformationCard } from '../cards/MedicalInformationCard';
export { PatientCard } from '../cards/PatientCard';
export { ProgressNotesCard } from '../cards/ProgressNotesCard';
export { SourceFacilityCard } from '../cards/SourceFacilityCard';
export { TagsCard } from '../cards/TagsCard';
export { VitalsCard } from '../cards/VitalsCard';
export { FeedbackDialog } from '../cards/FeedbackDialog';
export { ActivityReportDialog as ActivityReportDialogSlot } from '../exports/ActivityReportDialog';
export { ExportPdfDialog as ExportPdfDialogSlot } from '../exports/ExportPdfDialog';
export { NotesPdfButton, SummaryPdfButton } from '../exports/ExportButtons';
