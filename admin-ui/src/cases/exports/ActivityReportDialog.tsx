import { useState } from 'react';
import { useNotify } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import DownloadIcon from '@mui/icons-material/Download';
import AssessmentIcon from '@mui/icons-material/Assessment';
import { durationTwoUnits, formatDateTime } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import type { CaseDetails } from '../types';
import { exportUrls } from '../../data/methods/exports';
import { keys, useAppData, useAppQuery } from '../../data/query';

/** 'RecommendationReview_WaitingOnDecision' → 'Recommendation Review - Waiting On Decision' (as in the exports). */
export const statusWords = (v: string | null | undefined) =>
  (v ?? '')
    .split('_')
    .map((p) => p.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2'))
    .join(' - ');

export interface ActivityReportDialogProps {
  caseRecord: Pick<CaseDetails, 'id'>;
  open: boolean;
  onClose: () => void;
}

/**
 * The case activity report (spec 01 §3): total case time, and per status group its total and its
 * activities (status, initiator, started, ended, duration); exportable to CSV and PDF.
 */
export function ActivityReportDialog({ caseRecord, open, onClose }: ActivityReportDialogProps) {
  const notify = useNotify();
  const dp = useAppData();
  const query = useAppQuery(keys.case(caseRecord.id, 'activityReport'), (d) => d.caseActivityReport(caseRecord.id), { enabled: open, gcTime: 0 });
  const report = open ? query.data : null;
  const error = open && query.error ? query.failure?.message || 'The report cannot be loaded' : null;
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);


  const download = async (kind: 'csv' | 'pdf') => {
    setBusy(kind);
    try {
      if (kind === 'csv') await dp.downloadCsv(exportUrls.activityCsv(caseRecord.id));
      else await dp.downloadPdf(exportUrls.activityPdf(caseRecord.id));
    } catch (e) {
      notify((e as Error)?.message ?? 'Export failed', { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="activity-report-dialog">
      <DialogTitle>Case activity report</DialogTitle>
      <DialogContent dividers>
        {error && <Alert severity="error">{error}</Alert>}
        {!report && !error && <CircularProgress size={24} />}
        {report && (
          <>
            <Typography variant="subtitle1" data-testid="activity-report-total">
              Total case time: <strong>{durationTwoUnits(report.totalSeconds * 1000)}</strong>
            </Typography>
            {report.groups.length === 0 && <Typography color="text.secondary">No activity</Typography>}
            {report.groups.map((g) => (
              <Box key={g.group} sx={{ mt: 2 }} data-testid={`activity-report-group-${g.group}`}>
                <Typography variant="subtitle2">
                  {statusWords(g.group)} · {durationTwoUnits(g.totalSeconds * 1000)}
                </Typography>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>Status</TableCell>
                      <TableCell>Initiator</TableCell>
                      <TableCell>Started at</TableCell>
                      <TableCell>Ended at</TableCell>
                      <TableCell align="right">Duration</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {g.activities.map((a) => (
                      <TableRow key={a.id}>
                        <TableCell>{statusWords(a.status)}</TableCell>
                        <TableCell>{a.initiatorName ?? ''}</TableCell>
                        <TableCell>{formatDateTime(a.startedAt)}</TableCell>
                        <TableCell>{a.endedAt ? formatDateTime(a.endedAt) : ''}</TableCell>
                        <TableCell align="right">{durationTwoUnits(a.durationSeconds * 1000)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            ))}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={busy === 'csv' ? <CircularProgress size={14} /> : <DownloadIcon />} disabled={!!busy || !report} onClick={() => download('csv')} data-testid="activity-report-csv">
          CSV
        </Button>
        <Button startIcon={busy === 'pdf' ? <CircularProgress size={14} /> : <PictureAsPdfIcon />} disabled={!!busy || !report} onClick={() => download('pdf')} data-testid="activity-report-pdf">
          PDF
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** A button that opens the activity report (everyone who reads the case). */
export function ActivityReportButton({ caseRecord }: { caseRecord: Pick<CaseDetails, 'id'> }) {
  const { ability } = useSession();
  const [open, setOpen] = useState(false);
  if (!ability.can('read', 'CaseReport')) return null;
  return (
    <>
      <Button size="small" startIcon={<AssessmentIcon />} onClick={() => setOpen(true)} data-testid="activity-report-open">
        Activity report
      </Button>
      <ActivityReportDialog caseRecord={caseRecord} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
