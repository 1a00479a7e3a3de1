import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Link, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { ErrorCode, formatDateTime, formatPhone } from '@crisis/forms/core';
import { isCodedError } from '../data/codedError';
import { useAppQuery } from '../data/query';
import { dobText, facilityText, genderText } from './patientText';

/** The survivor a merged-away record points to (INV.PATIENT.MERGED payload), if that is the failure. */
export function survivorOf(failure: unknown): number | null {
  if (!isCodedError(failure) || failure.code !== ErrorCode.PatientMerged) return null;
  const id = (failure.payload as { survivorId?: unknown } | undefined)?.survivorId;
  return typeof id === 'number' ? id : null;
}

/** The directory's read-only details modal (spec 02 §2 "Patients"): a merged-away record opens its survivor. */
export function PatientDetailsDialog({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const [id, setId] = useState(patientId);
  const [mergedFrom, setMergedFrom] = useState<number | null>(null);
  const { data: p, error, failure } = useAppQuery(['patient', id], (dp) => dp.patient(id));
  const survivor = survivorOf(failure);
  useEffect(() => {
    if (survivor) {
      setMergedFrom(id);
      setId(survivor);
    }
  }, [survivor, id]);
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <TableRow>
      <TableCell sx={{ fontWeight: 600, width: 200 }}>{label}</TableCell>
      <TableCell data-testid={testId}>{value || '—'}</TableCell>
    </TableRow>
  );
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="patient-details-dialog">
      <DialogTitle>{p ? `${p.firstName} ${p.lastName}` : 'Patient'}</DialogTitle>
      <DialogContent>
        {mergedFrom && <Alert severity="info" sx={{ mb: 1 }} data-testid="patient-merged-note">This record was merged: showing the record it was merged into.</Alert>}
        {error && !survivor && <Alert severity="error">{error}</Alert>}
        {!p && !error && <CircularProgress />}
        {p && (
          <Table size="small">
            <TableBody>
              {row('Reference number', p.referenceNumber, 'patient-details-reference')}
              {row('Date of birth', dobText(p.dateOfBirth), 'patient-details-dob')}
              {row('Gender', genderText(p.gender))}
              {row('Phone', p.phone ? formatPhone(p.phone) : null)}
              {row('Veteran', p.isVeteran ? 'Yes' : 'No')}
              {row('Homeless', p.homeless ? 'Yes' : 'No')}
              {row(
                'Address',
                [p.address.streetLine, p.address.apartmentNumber, p.address.city, p.address.county, p.address.state, p.address.zipCode].filter(Boolean).join(', '),
              )}
              {row('EHR patient id', p.patientEpicId)}
              {row('Outpatient psychiatric provider', [p.outpatientProviderName, p.outpatientProviderPhone && formatPhone(p.outpatientProviderPhone)].filter(Boolean).join(', '))}
              {row('Created in', p.createdIn?.facilityName)}
              {row('Source facilities', p.sourceFacilities.map((f) => facilityText(f)).join('; '))}
              {row('Last case', p.lastCase ? `${p.lastCase.referenceNumber}, ${formatDateTime(p.lastCase.createdAt)}${p.lastCase.activeCase ? ' (active)' : ''}` : null)}
              {row('Tags', p.tags.map((t) => t.name).join(', '))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        {p && (
          <Link href={`/patients/${p.id}/history`} target="_blank" rel="noopener" data-testid="patient-details-history">
            Case history
          </Link>
        )}
        <Button onClick={onClose} data-testid="patient-details-close">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
