import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, Card, CardContent, CircularProgress, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatDateTime, formatPhone } from '@crisis/forms/core';
import { api } from '../data/httpClient';
import { survivorOf } from './PatientDetailsDialog';

interface HistoryCase {
  id: number;
  referenceNumber: string;
  createdAt: string;
  closedAt: string | null;
  status: string;
  statusLabel: string;
  sourceFacility: { id: number; name: string };
  sourceDivision: { id: number; name: string };
  outcome: { type: string | null; note: string | null; referringFacility: { facilityName: string; divisionName: string } | null } | null;
}

interface History {
  patient: {
    id: number;
    referenceNumber: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    gender: string;
    phone: string | null;
    address: { streetLine: string | null; city: string | null; state: string | null; zipCode: string | null };
    createdIn: { facilityName: string } | null;
  };
  cases: HistoryCase[];
}

const dob = (d: string) => `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`;
const humanize = (v: string) => v.replace(/_/g, ': ').replace(/([a-z])([A-Z])/g, '$1 $2');

/** /patients/{id}/history (spec 01 §2, §6): every case of the patient, opened in a new tab from the case page. */
export function PatientHistoryPage() {
  const { id } = useParams();
  const [data, setData] = useState<History | null>(null);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const mergedFrom = (useLocation().state as { mergedFrom?: string } | null)?.mergedFrom;
  useEffect(() => {
    setData(null);
    setError(null);
    api.get<History>(`/api/patients/${encodeURIComponent(id ?? '')}/history`).then(setData, (e) => {
      // A record merged into another: its history is the survivor's (INV.PATIENT.MERGED).
      const survivor = survivorOf(e);
      if (survivor) navigate(`/patients/${survivor}/history`, { replace: true, state: { mergedFrom: id } });
      else setError((e as Error).message);
    });
  }, [id, navigate]);
  if (error) return <Alert severity="error" sx={{ m: 2 }}>{error}</Alert>;
  if (!data) return <CircularProgress sx={{ m: 4 }} />;
  const p = data.patient;
  return (
    <Box sx={{ p: 2 }} data-testid="patient-history-page">
      {mergedFrom && (
        <Alert severity="info" sx={{ mb: 1 }} data-testid="patient-history-merged">
          The record you opened was merged into this one.
        </Alert>
      )}
      <Typography variant="h5">
        Patient history: {p.firstName} {p.lastName}
      </Typography>
      <Stack direction="row" spacing={3} sx={{ my: 1 }}>
        <Typography variant="body2" color="text.secondary" data-testid="patient-history-reference">
          Patient #{p.referenceNumber}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Date of birth {dob(p.dateOfBirth)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {humanize(p.gender)}
        </Typography>
        {p.phone && (
          <Typography variant="body2" color="text.secondary">
            {formatPhone(p.phone)}
          </Typography>
        )}
        {p.createdIn && (
          <Typography variant="body2" color="text.secondary">
            Created in {p.createdIn.facilityName}
          </Typography>
        )}
      </Stack>
      <Card variant="outlined">
        <CardContent>
          {data.cases.length === 0 ? (
            <Typography color="text.secondary">No cases.</Typography>
          ) : (
            <Table size="small" data-testid="patient-history-table">
              <TableHead>
                <TableRow>
                  <TableCell>Case</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Source facility / division</TableCell>
                  <TableCell>Outcome</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.cases.map((c) => (
                  <TableRow key={c.id} data-testid="patient-history-row">
                    <TableCell>
                      <Link component={RouterLink} to={`/cases/${c.id}`}>
                        {c.referenceNumber}
                      </Link>
                    </TableCell>
                    <TableCell>{formatDateTime(c.createdAt)}</TableCell>
                    <TableCell>{c.statusLabel}</TableCell>
                    <TableCell>
                      {c.sourceFacility.name} / {c.sourceDivision.name}
                    </TableCell>
                    <TableCell>
                      {c.outcome?.type ? humanize(c.outcome.type) : '—'}
                      {c.outcome?.referringFacility && (
                        <Typography variant="caption" display="block" color="text.secondary">
                          {c.outcome.referringFacility.facilityName} / {c.outcome.referringFacility.divisionName}
                        </Typography>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
