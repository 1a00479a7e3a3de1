import { useState } from 'react';
import { Button, Card, CardContent, CardHeader, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import AssessmentIcon from '@mui/icons-material/Assessment';
import { caseStatusLabel, durationTwoUnits, formatDateTime } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import type { CaseCardProps } from '../types';
import { ActivityReportDialogSlot } from './slots';
import { keys, useAppQuery } from '../../data/query';
import { undoneRowSx } from '../../common/tableParts';

/**
 * Case activity (spec 01 §3 Case activity info): one row per status the case went through, with its
 * initiator, start, end and duration; undone changes are struck through. The activity report opens
 * in a dialog.
 */
export function CaseActivityCard({ caseRecord }: CaseCardProps) {
  const { context } = useSession();
  const [report, setReport] = useState(false);
  const audience = context.organizationType === 'Facility' ? 'facility' : 'itp';
  // The case's version changes with every command: the rows are loaded again then.
  const { data: rows, error } = useAppQuery(keys.case(caseRecord.id, 'activity', caseRecord.version, caseRecord.status), (dp) =>
    dp.caseActivity(caseRecord.id),
  );
  return (
    <Card variant="outlined" data-testid="case-activity-card">
      <CardHeader
        title="Case activity"
        titleTypographyProps={{ variant: 'h6' }}
        action={
          <Button size="small" startIcon={<AssessmentIcon />} onClick={() => setReport(true)} data-testid="activity-report-open">
            Activity report
          </Button>
        }
      />
      {/* A table wider than the card scrolls: the keyboard reaches it (WCAG 2.1.1). */}
      <CardContent sx={{ pt: 0, overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Case activity">
        {error && <Typography color="error">{error}</Typography>}
        {rows && rows.length === 0 && <Typography color="text.secondary">No activity yet.</Typography>}
        {rows && rows.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Status</TableCell>
                <TableCell>Initiator</TableCell>
                <TableCell>Started</TableCell>
                <TableCell>Ended</TableCell>
                <TableCell>Duration</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {[...rows].reverse().map((r) => (
                <TableRow
                  key={r.id}
                  data-testid="activity-row"
                  data-undone={r.undone ? 'true' : 'false'}
                  sx={undoneRowSx(r.undone)}
                >
                  <TableCell>
                    {caseStatusLabel(r.status, audience)}
                    {r.note && (
                      <Typography variant="caption" display="block" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
                        {r.note}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{r.initiatorName ?? 'System'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.startedAt)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.endedAt ? formatDateTime(r.endedAt) : '—'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.status === 'Closed' ? '—' : durationTwoUnits(r.durationSeconds * 1000)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ActivityReportDialogSlot caseRecord={caseRecord} open={report} onClose={() => setReport(false)} />
    </Card>
  );
}
