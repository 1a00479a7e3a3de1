import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, Button, Chip, CircularProgress, Typography } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import RateReviewIcon from '@mui/icons-material/RateReview';
import HistoryIcon from '@mui/icons-material/History';
import { CaseStatus, DivisionType, OLD_SYSTEM_DOCUMENTS_MESSAGE, UserType, caseReference, durationTwoUnits, formatDateTime } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { isCodedError } from '../../data/codedError';
import { keys, useAppQuery } from '../../data/query';
import { caseRoom, useLiveEvent } from '../../live/useLiveEvent';
import { AccessDeniedPage } from '../../pages/errors/AccessDeniedPage';
import { NotFoundPage } from '../../pages/errors/NotFoundPage';
import type { CaseCardProps } from '../types';
import { enumLabel } from './caseLabels';
import { CaseActivityCard } from './CaseActivityCard';
import { PlacementsCard } from '../../placement/PlacementsCard';
import { FullLogDialog } from '../../placement/full-log/FullLogDialog';
import { RequestsCard } from './RequestsCard';
import { StatusControl } from './StatusControl';
import {
  CaseNotesCard,
  DecisionCard,
  ExportPdfDialogSlot,
  FacilityMedicalInformationCard,
  FeedbackDialog,
  NotesPdfButton,
  SummaryPdfButton,
  FilesCard,
  InsuranceCard,
  MedicalInformationCard,
  PatientCard,
  ProgressNotesCard,
  SourceFacilityCard,
  TagsCard,
  VitalsCard,
} from './slots';

export type CaseLayoutKind = 'itp' | 'source' | 'referring' | 'provider';

type CardComponent = (props: CaseCardProps) => ReactNode;
/** Two columns: the main column (wide cards) and the side column. */
const LAYOUTS: Record<CaseLayoutKind, { main: CardComponent[]; side: CardComponent[] }> = {
  itp: {
    main: [CaseActivityCard, RequestsCard, PlacementsCard, ProgressNotesCard, MedicalInformationCard, CaseNotesCard, FilesCard],
    side: [PatientCard, SourceFacilityCard, TagsCard, VitalsCard, InsuranceCard],
  },
  source: {
    main: [RequestsCard, FacilityMedicalInformationCard, CaseNotesCard, FilesCard],
    side: [PatientCard, SourceFacilityCard, DecisionCard, VitalsCard, InsuranceCard],
  },
  referring: {
    main: [RequestsCard, CaseNotesCard, FilesCard],
    side: [PatientCard, SourceFacilityCard],
  },
  provider: {
    main: [RequestsCard, ProgressNotesCard, MedicalInformationCard, CaseNotesCard, FilesCard],
    side: [PatientCard, SourceFacilityCard, TagsCard, VitalsCard],
  },
};

/** Which layout a user gets (spec 01 §2: each role its own). */
export function layoutFor(role: string, divisionType: string | null | undefined): CaseLayoutKind {
  if (role === UserType.ItpAdmin || role === UserType.ItpUser) return 'itp';
  if (role === UserType.ItpProvider) return 'provider';
  if (role === UserType.FacilityUser && divisionType === DivisionType.Referring) return 'referring';
  return 'source';
}

/** /cases/:id — the case page laid out per role, refreshed live when someone else changes the case. */
export function CasePage() {
  const { id } = useParams();
  const caseId = Number(id);
  const { context, ability } = useSession();
  const [feedback, setFeedback] = useState(false);
  const [pdf, setPdf] = useState(false);
  const [placementLog, setPlacementLog] = useState(false);
  const valid = Number.isInteger(caseId) && caseId > 0 && String(caseId) === id;
  // A provider opening a case with his Pending request: the server moves it to InProgress (spec 01 §4).
  const load = useAppQuery(keys.case(caseId, 'details'), (dp) => dp.caseDetails(caseId), { enabled: valid });
  useLiveEvent(valid ? caseRoom(caseId) : undefined, 'case.updated', load.reload);

  if (!valid) return <NotFoundPage />;
  const failure = load.failure;
  if (!load.data && isCodedError(failure) && (failure.status === 404 || failure.status === 400)) return <NotFoundPage />;
  if (!load.data && isCodedError(failure) && failure.status === 403) return <AccessDeniedPage />;
  if (!load.data && failure) return <Alert severity="error">{failure.message}</Alert>;
  if (!load.data)
    return (
      <Box sx={{ p: 6, textAlign: 'center' }}>
        <CircularProgress />
      </Box>
    );

  const record = load.data;
  const closed = record.status === CaseStatus.Closed;
  const layout = LAYOUTS[layoutFor(context.role, context.divisionType)];
  const onChanged = load.reload;
  const cardProps: CaseCardProps = { caseRecord: record, onChanged };
  return (
    <Box data-testid="case-page" data-case-version={record.version} data-case-status={record.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h5" component="h1" data-testid="page-title">
          Case {caseReference(record.id)}
        </Typography>
        <Typography variant="h6" color="text.secondary" data-testid="case-patient-name">
          {record.patient.firstName} {record.patient.lastName}
        </Typography>
        <Chip
          label={record.statusLabel}
          color={closed ? 'default' : 'primary'}
          data-testid="case-status-chip"
          title={ability.can('update', 'CaseStatus') ? undefined : 'Case status (read only)'}
        />
        <Typography variant="body2" color="text.secondary" data-testid="case-time-elapsed" title={`Created ${formatDateTime(record.createdAt)}`}>
          Time elapsed: {durationTwoUnits(record.timeElapsedSeconds * 1000)}
        </Typography>
      </Box>
      {closed && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="case-closed-banner">
          This case is closed{record.closedAt ? ` since ${formatDateTime(record.closedAt)}` : ''}
          {record.outcome?.type ? ` — outcome: ${enumLabel(record.outcome.type)}` : ''}
          {record.outcome?.referringFacility ? ` (${record.outcome.referringFacility.facilityName} — ${record.outcome.referringFacility.divisionName})` : ''}.
        </Alert>
      )}
      {record.isFromOldSystem && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="case-old-system-banner">
          {OLD_SYSTEM_DOCUMENTS_MESSAGE}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        {ability.can('update', 'CaseStatus') && <StatusControl caseRecord={record} onChanged={onChanged} />}
        <Box sx={{ flex: 1 }} />
        {closed && ability.can('create', 'CaseFeedback') && (
          <Button size="small" startIcon={<RateReviewIcon />} onClick={() => setFeedback(true)} data-testid="case-feedback">
            Provide feedback
          </Button>
        )}
        {/* Facility staff read the placement activity log (spec 02 §2); coordinators open it from the placements card. */}
        {ability.can('read', 'PlacementLog') && !ability.can('manage', 'Placement') && (
          <Button size="small" startIcon={<HistoryIcon />} onClick={() => setPlacementLog(true)} data-testid="case-placement-log">
            Placement activity
          </Button>
        )}
        <SummaryPdfButton caseRecord={record} />
        <NotesPdfButton caseRecord={record} />
        {context.role !== UserType.FacilityUser || context.divisionType !== DivisionType.Referring ? (
          <Button size="small" startIcon={<PictureAsPdfIcon />} onClick={() => setPdf(true)} data-testid="case-export-pdf">
            Export to PDF
          </Button>
        ) : null}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          {layout.main.map((C, i) => (
            <C key={i} {...cardProps} />
          ))}
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          {layout.side.map((C, i) => (
            <C key={i} {...cardProps} />
          ))}
        </Box>
      </Box>
      <ExportPdfDialogSlot caseRecord={record} open={pdf} onClose={() => setPdf(false)} />
      {placementLog && <FullLogDialog caseId={record.id} open onClose={() => setPlacementLog(false)} />}
      <FeedbackDialog caseRecord={record} open={feedback} onClose={() => setFeedback(false)} onSaved={onChanged} />
    </Box>
  );
}
