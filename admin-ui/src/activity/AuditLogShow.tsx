import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Grid, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link, useParams } from 'react-router-dom';
import { formatDateTime, type AuditLogEntryDetail } from '@crisis/forms/core';
import { setLastVisited } from '../common/listPersistence';
import { PageTitle } from '../common/PageTitle';
import { isCodedError } from '../data/codedError';
import { SuccessChip } from './AuditLogList';
import { useAppData } from '../data/query';

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body1" data-testid={testId}>
        {children ?? '—'}
      </Typography>
    </Grid>
  );
}

/** /activity/{id}: one entry: performed at, user, success, the body and the values as path/value pairs. */
export function AuditLogShow() {
  const { id = '' } = useParams();
  const [entry, setEntry] = useState<AuditLogEntryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dp = useAppData();
  useEffect(() => {
    let live = true;
    setEntry(null);
    setError(null);
    dp.auditEntry(id)
      .then((e) => {
        if (!live) return;
        setEntry(e);
        setLastVisited('activity', e.id);
      })
      .catch((e) => live && setError(isCodedError(e) ? e.message : 'Requested data not found'));
    return () => {
      live = false;
    };
  }, [id]);

  return (
    <Box>
      <PageTitle title="Audit log entry">
        <Button component={Link} to="/activity" startIcon={<ArrowBackIcon />} size="small" data-testid="audit-back">
          Audit log
        </Button>
      </PageTitle>
      {error && <Alert severity="error">{error}</Alert>}
      {!entry && !error && <CircularProgress size={24} />}
      {entry && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="audit-entry">
          <Card variant="outlined">
            <CardContent>
              <Grid container spacing={2}>
                <Field label="Performed at" testId="audit-entry-performedAt">{formatDateTime(entry.performedAt)}</Field>
                <Field label="Main action" testId="audit-entry-mainAction">{entry.mainAction}</Field>
                <Field label="Kind">{entry.kind}</Field>
                <Field label="User" testId="audit-entry-user">
                  {entry.userName ?? '—'}
                  {entry.email ? ` (${entry.email})` : ''}
                </Field>
                <Field label="User type">{entry.userType}</Field>
                <Field label="Organization">{entry.organization}</Field>
                <Field label="Division">{entry.division}</Field>
                <Field label="Success" testId="audit-entry-success">
                  <SuccessChip success={entry.success} />
                </Field>
                <Field label="Request">{[entry.method, entry.path, entry.statusCode].filter((v) => v !== null && v !== undefined).join(' ') || '—'}</Field>
                <Field label="Correlation id">{entry.correlationId}</Field>
              </Grid>
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" gutterBottom>
                Body
              </Typography>
              <Box
                component="pre"
                data-testid="audit-entry-body"
                sx={{ m: 0, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, overflow: 'auto', maxHeight: 480, fontSize: 13 }}
              >
                {entry.body === null || entry.body === undefined ? 'No body' : JSON.stringify(entry.body, null, 2)}
              </Box>
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" gutterBottom>
                Values
              </Typography>
              {entry.values.length === 0 ? (
                <Typography color="text.secondary">No values</Typography>
              ) : (
                <Table size="small" data-testid="audit-entry-values">
                  <TableHead>
                    <TableRow>
                      <TableCell>Path</TableCell>
                      <TableCell>Value</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {entry.values.map((v) => (
                      <TableRow key={v.path}>
                        <TableCell sx={{ fontFamily: 'monospace' }}>{v.path}</TableCell>
                        <TableCell>{v.value}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </Box>
      )}
    </Box>
  );
}
