import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  FormHelperText,
  Radio,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { caseReference, formatDay } from '@crisis/forms/core';
import { PageTitle } from '../../common/PageTitle';
import { ActiveCaseDialog } from './ActiveCaseDialog';
import { AlreadyAcceptedDialog, PatientReviewDialog, patientStep, type PatientStep } from './PatientNoticeDialogs';
import { useAppQuery } from '../../data/query';
import { searchFromQuery, searchToQuery } from './searchQuery';

/** Message of the select-one choice (key patientRequired). */
export const PATIENT_REQUIRED_MESSAGE = 'Please select a patient';

const day = (d: string | null) => (d ? formatDay(d.length === 10 ? `${d}T00:00:00` : d) : '—');

/**
 * /cases/create/search/result (ITP admin and user, spec 01 §2): the patients matching the search,
 * each with its last case; continue with one of them, or create a new patient.
 */
export function CaseSearchResultPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const search = useMemo(() => searchFromQuery(new URLSearchParams(location.search)), [location.search]);
  const { data: matches, error: failed } = useAppQuery(['patientSearch', search], (dp) => dp.searchPatients(search!), { enabled: !!search });
  const [selected, setSelected] = useState<number | null>(null);
  const [required, setRequired] = useState(false);
  const [step, setStep] = useState<PatientStep | null>(null);

  if (!search) return <Navigate to="/cases/create/search" replace />;

  const go = (patientId: number) => navigate(`/cases/create?${searchToQuery(search, { patientId })}`);
  const proceed = () => {
    const patient = matches?.find((m) => m.id === selected);
    if (!patient) return setRequired(true);
    // ITP staff choose the source facility later: a visit at any facility asks for a review.
    const next = patientStep(patient, null);
    if (next.kind === 'go') return go(patient.id);
    setStep(next);
  };

  const count = matches?.length ?? 0;
  return (
    <Box sx={{ maxWidth: 900 }}>
      <PageTitle title="New case" />
      <Card>
        <CardContent>
          {failed && <Alert severity="error">{failed}</Alert>}
          {!matches && !failed && <CircularProgress size={24} />}
          {matches && (
            <>
              <Typography variant="subtitle1" data-testid="search-result-message" sx={{ mb: 1 }}>
                {count === 1
                  ? 'One patient with this name and date of birth was found. Continue with this patient or create a new one.'
                  : `${count} patients with this name and date of birth were found. Select one to continue, or create a new patient.`}
              </Typography>
              <Table size="small" data-testid="search-result-table">
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox" />
                    <TableCell>Patient</TableCell>
                    <TableCell>Date of birth</TableCell>
                    <TableCell>City</TableCell>
                    <TableCell>Last case</TableCell>
                    <TableCell>Last case created</TableCell>
                    <TableCell>Last case status</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {matches.map((m) => (
                    <TableRow
                      key={m.id}
                      hover
                      selected={selected === m.id}
                      onClick={() => {
                        setSelected(m.id);
                        setRequired(false);
                      }}
                      sx={{ cursor: 'pointer' }}
                      data-testid="search-result-row"
                    >
                      <TableCell padding="checkbox">
                        <Radio checked={selected === m.id} inputProps={{ 'aria-label': `${m.firstName} ${m.lastName}` }} />
                      </TableCell>
                      <TableCell>
                        {m.firstName} {m.lastName}
                      </TableCell>
                      <TableCell>{day(m.dateOfBirth)}</TableCell>
                      <TableCell>{[m.city, m.state].filter(Boolean).join(', ') || '—'}</TableCell>
                      <TableCell data-testid="search-result-last-case">{m.lastCaseId ? caseReference(m.lastCaseId) : '—'}</TableCell>
                      <TableCell>{day(m.lastCaseCreatedAt)}</TableCell>
                      <TableCell>{m.lastCaseId ? (m.activeCase ? 'Active' : 'Closed') : '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {required && (
                <FormHelperText error data-testid="patient-required" sx={{ mt: 1 }}>
                  {PATIENT_REQUIRED_MESSAGE}
                </FormHelperText>
              )}
            </>
          )}
          <Stack direction="row" justifyContent="flex-end" spacing={1} sx={{ mt: 3 }}>
            <Button onClick={() => navigate('/dashboard')} data-testid="result-cancel">
              Cancel
            </Button>
            <Button variant="outlined" onClick={() => navigate(`/cases/create?${searchToQuery(search)}`)} data-testid="result-new-patient">
              Create new patient
            </Button>
            <Button variant="contained" onClick={proceed} disabled={!matches} data-testid="result-continue">
              Continue
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <ActiveCaseDialog open={step?.kind === 'active'} onClose={() => setStep(null)} />
      <AlreadyAcceptedDialog step={step} onClose={() => setStep(null)} />
      <PatientReviewDialog step={step} onCancel={() => setStep(null)} onContinue={() => step && go(step.match.id)} />
    </Box>
  );
}
