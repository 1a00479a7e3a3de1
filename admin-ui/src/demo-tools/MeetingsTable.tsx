import { Alert, Card, CardContent, CardHeader, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { caseReference, formatDateTime } from '@crisis/forms/core';
import { useAppQuery } from '../data/query';

/** Demo tools "meetings" (spec 03 §2): the video meetings with their rooms and who joined, read only. */
export function MeetingsTable() {
  const meetings = useAppQuery(['demoMeetings'], (dp) => dp.demoMeetings(), { refetchInterval: 10_000 });
  return (
    <Card variant="outlined" sx={{ mt: 3 }} data-testid="demo-meetings">
      <CardHeader title="Meetings" titleTypographyProps={{ variant: 'h6' }} subheader="Video meetings of requests (Jitsi rooms), newest first" />
      <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
        {meetings.error && <Alert severity="error">{meetings.error}</Alert>}
        {meetings.data && meetings.data.length === 0 && <Typography color="text.secondary">No meetings yet.</Typography>}
        {meetings.data && meetings.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Created</TableCell>
                <TableCell>Case</TableCell>
                <TableCell>Request</TableCell>
                <TableCell>Room</TableCell>
                <TableCell>Provider</TableCell>
                <TableCell>Patient</TableCell>
                <TableCell>State</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {meetings.data.map((m) => (
                <TableRow key={m.id} data-testid="demo-meeting-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.createdAt)}</TableCell>
                  <TableCell>{caseReference(m.caseId)}</TableCell>
                  <TableCell>{m.requestId}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{m.room}</TableCell>
                  <TableCell>{m.isProviderJoined ? 'Joined' : '—'}</TableCell>
                  <TableCell>{m.isPatientJoined ? 'Joined' : '—'}</TableCell>
                  <TableCell>
                    {m.endedAt ? <Chip size="small" label={`Ended (${m.endedReason})`} /> : <Chip size="small" color="success" label={`Open until ${formatDateTime(m.idleEndsAt)} unless joined`} />}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
