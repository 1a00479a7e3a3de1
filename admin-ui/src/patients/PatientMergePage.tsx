import { useMemo, useState } from 'react';
import { Alert, Box, Button, Checkbox, CircularProgress, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useNotify } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { ErrorCode, caseReference, differsFromMajority, formatDateTime, formatPhone } from '@crisis/forms/core';
import { InfoDialog, type InfoDialogContent } from '../common/InfoDialog';
import { PageTitle } from '../common/PageTitle';
import { useConfirmation } from '../common/ConfirmDialog';
import { isCodedError } from '../data/codedError';
import type { MergeRecord } from '../data/methods/patients';
import { useAppMutation, useAppQuery } from '../data/query';
import { dobText, genderText } from './patientText';

/** The compared columns: cells that differ from the majority are red (spec 02 §2 "Merge page"). */
const COLUMNS: Array<{ label: string; value: (r: MergeRecord) => unknown; show?: (r: MergeRecord) => string }> = [
  { label: 'First name', value: (r) => r.firstName },
  { label: 'Last name', value: (r) => r.lastName },
  { label: 'DOB', value: (r) => r.dateOfBirth, show: (r) => dobText(r.dateOfBirth) },
  { label: 'Gender', value: (r) => r.gender, show: (r) => genderText(r.gender) },
  { label: 'Phone', value: (r) => r.phone, show: (r) => (r.phone ? formatPhone(r.phone) : '') },
  { label: 'Veteran', value: (r) => r.isVeteran, show: (r) => (r.isVeteran ? 'Yes' : 'No') },
  { label: 'Homeless', value: (r) => r.homeless, show: (r) => (r.homeless ? 'Yes' : 'No') },
  { label: 'Street', value: (r) => [r.address.streetLine, r.address.apartmentNumber].filter(Boolean).join(', ') },
  { label: 'City', value: (r) => r.address.city },
  { label: 'County', value: (r) => r.address.county },
  { label: 'State', value: (r) => r.address.state },
  { label: 'Zip', value: (r) => r.address.zipCode },
  { label: 'EHR patient id', value: (r) => r.patientEpicId },
  { label: 'Created in', value: (r) => r.createdIn?.facilityName ?? null },
];

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** /patients/merge?firstName&lastName&dateOfBirth (ITP admin): review one group of duplicates. */
export function PatientMergePage() {
  const [params] = useSearchParams();
  const key = { firstName: params.get('firstName') ?? '', lastName: params.get('lastName') ?? '', dateOfBirth: params.get('dateOfBirth') ?? '' };
  const navigate = useNavigate();
  const notify = useNotify();
  const confirm = useConfirmation();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [info, setInfo] = useState<InfoDialogContent | null>(null);
  const { data: records, error } = useAppQuery(['patients', 'mergeRecords', key], (dp) => dp.mergeRecords(key));
  const merge = useAppMutation((dp, ids: number[]) => dp.mergePatients(ids), [['patients']]);
  const notNeeded = useAppMutation((dp, ids: number[]) => dp.mergeNotNeeded(ids), [['patients']]);
  const differs = useMemo(() => (records ? COLUMNS.map((c) => differsFromMajority(records.map(c.value))) : []), [records]);

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const refused = (e: unknown) => {
    if (isCodedError(e) && e.code === ErrorCode.MergePatientsWithMoreThanOneActiveCases) {
      const active = (e.payload as { activeCases?: Array<{ caseId: number }> } | undefined)?.activeCases ?? [];
      setInfo({ title: 'Active cases', message: 'These records each have an active case: close all but one before merging.', items: active.map((c) => caseReference(c.caseId)) });
      return;
    }
    notify(e instanceof Error ? e.message : 'Could not save', { type: 'error' });
  };

  const onMerge = () => {
    const ids = [...selected];
    if (ids.length < 2) {
      notify('Select at least two records to merge', { type: 'warning' });
      return;
    }
    confirm.ask({
      title: 'Merge records',
      message: `Merge ${ids.length} records into one? Their cases, files, insurances and history move to the oldest record.`,
      onConfirm: async () => {
        try {
          const result = await merge.mutateAsync(ids);
          notify('Patients merged', { type: 'success' });
          navigate(`/patients?mergedInto=${result.survivorId}`);
        } catch (e) {
          refused(e);
        }
      },
    });
  };

  const onNotNeeded = async () => {
    if (!records) return;
    // Spec 02 §8: "no merging needed" is said of the whole group.
    if (selected.size !== records.length) {
      setInfo({ title: 'Select all records', message: 'Select every record of the group to mark it as not needing a merge.', items: [] });
      return;
    }
    try {
      await notNeeded.mutateAsync(records.map((r) => r.id));
      notify('Marked as no merging needed', { type: 'success' });
      navigate('/patients');
    } catch (e) {
      refused(e);
    }
  };

  const busy = merge.isPending || notNeeded.isPending;
  return (
    <Box sx={{ p: 2 }} data-testid="patient-merge-page">
      <PageTitle title={`Duplicates: ${key.firstName} ${key.lastName}, ${dobText(key.dateOfBirth)}`} />
      {error && <Alert severity="error">{error}</Alert>}
      {!records && !error && <CircularProgress />}
      {records && records.length < 2 && <Alert severity="info">There is nothing to merge in this group any more.</Alert>}
      {records && records.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="merge-records-table">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={selected.size === records.length}
                    indeterminate={selected.size > 0 && selected.size < records.length}
                    onChange={(e) => setSelected(new Set(e.target.checked ? records.map((r) => r.id) : []))}
                    slotProps={{ input: { 'aria-label': 'Select all' } }}
                  />
                </TableCell>
                <TableCell>Reference</TableCell>
                {COLUMNS.map((c) => (
                  <TableCell key={c.label}>{c.label}</TableCell>
                ))}
                <TableCell>Cases</TableCell>
                <TableCell>Last case</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {records.map((r, i) => (
                <TableRow key={r.id} data-testid="merge-record-row" data-patient-id={r.id} selected={selected.has(r.id)}>
                  <TableCell padding="checkbox">
                    <Checkbox checked={selected.has(r.id)} onChange={() => toggle(r.id)} slotProps={{ input: { 'aria-label': `Select ${r.referenceNumber}`, 'data-testid': 'merge-record-select' } as object }} />
                  </TableCell>
                  <TableCell>
                    <Link href={`/patients/${r.id}/history`} target="_blank" rel="noopener">
                      {r.referenceNumber}
                    </Link>
                  </TableCell>
                  {COLUMNS.map((c, ci) => (
                    <TableCell
                      key={c.label}
                      data-differs={differs[ci][i] ? 'true' : undefined}
                      data-testid={`merge-cell-${c.label.toLowerCase().replace(/\W+/g, '-')}`}
                      sx={differs[ci][i] ? { color: 'error.main', fontWeight: 600, bgcolor: 'rgba(211, 47, 47, 0.08)' } : undefined}
                    >
                      {text(c.show ? c.show(r) : c.value(r))}
                    </TableCell>
                  ))}
                  <TableCell>{r.casesCount}</TableCell>
                  <TableCell>
                    {r.lastCase ? (
                      <Link component={RouterLink} to={`/cases/${r.lastCase.id}`}>
                        {caseReference(r.lastCase.id)}
                      </Link>
                    ) : (
                      '—'
                    )}
                    {r.lastCase && (
                      <Typography variant="caption" display="block" color="text.secondary">
                        {formatDateTime(r.lastCase.createdAt)}
                        {r.lastCase.activeCase ? ' · active' : ''}
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button onClick={() => navigate('/patients')} data-testid="merge-cancel">
          Cancel
        </Button>
        <Button variant="outlined" disabled={!records || busy} onClick={onNotNeeded} data-testid="merge-not-needed">
          No merging needed
        </Button>
        <Button variant="contained" disabled={!records || busy} onClick={onMerge} data-testid="merge-selected">
          Merge selected
        </Button>
      </Stack>
      <InfoDialog content={info} onClose={() => setInfo(null)} />
      {confirm.dialog}
    </Box>
  );
}
