import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  TablePagination,
  Typography,
} from '@mui/material';
import { UserType, formatDateTime } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { isCodedError } from '../../data/codedError';
import type { AcceptedCase } from '@crisis/forms/core';
import { useAppData } from '../../data/query';
import { enumLabel } from '../../cases/page/caseLabels';
import { nextSort, type Sort } from '../../common/tableParts';
import { SimpleTable } from '../../common/SimpleTable';

type SortField = 'patient' | 'sourceFacility' | 'patientAcceptedCreatedAt' | 'status';
const PAGE_SIZE = 10;

/**
 * The referring facility's accepted cases (spec 02 §2 /dashboard): patient, source facility,
 * accepted at, status, default accepted-at ascending; "Close" confirms the patient arrived, which
 * closes the case with the division's transfer outcome (PUT /api/cases/{id}/referring/confirm).
 */
export function AcceptedCasesTable() {
  const notify = useNotify();
  const dp = useAppData();
  const { ability, context } = useSession();
  const [rows, setRows] = useState<AcceptedCase[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<Sort<SortField>>({ field: 'patientAcceptedCreatedAt', order: 'ASC' });
  const [confirm, setConfirm] = useState<AcceptedCase | null>(null);
  const [busy, setBusy] = useState(false);
  const allowed = ability.can('read', 'AcceptedCase');

  const load = useCallback(async () => {
    if (!allowed) return;
    try {
      const res = await dp.acceptedCases([sort.field, sort.order], page, PAGE_SIZE);
      setRows(res.rows);
      setTotal(res.total);
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The accepted cases could not be loaded', { type: 'error' });
    }
  }, [allowed, page, sort, notify, dp]);
  useEffect(() => {
    void load();
  }, [load]);

  // A facility admin of a facility without referring divisions has nothing to see here.
  if (!allowed || (context.role === UserType.FacilityAdmin && total === 0)) return null;

  const close = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      await dp.confirmArrival(confirm.id);
      notify('The case was closed', { type: 'success' });
      setConfirm(null);
      await load();
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The case could not be closed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="accepted-cases">
      <CardHeader title="Accepted patients" titleTypographyProps={{ variant: 'h6' }} />
      <CardContent sx={{ pt: 0 }}>
        <SimpleTable<AcceptedCase>
          columns={[
            {
              label: 'Patient',
              sortField: 'patient',
              render: (r) => (
                <Link component={RouterLink} to={`/cases/${r.id}`}>
                  {r.patient.firstName} {r.patient.lastName}
                </Link>
              ),
            },
            { label: 'Source facility', sortField: 'sourceFacility', render: (r) => r.sourceFacility.name },
            { label: 'Accepted at', sortField: 'patientAcceptedCreatedAt', render: (r) => formatDateTime(r.acceptedAt) },
            { label: 'Status', sortField: 'status', render: (r) => enumLabel(r.status) },
            {
              align: 'right',
              render: (r) =>
                ability.can('update', 'AcceptedCase') && (
                  <Button size="small" onClick={() => setConfirm(r)}>
                    Close
                  </Button>
                ),
            },
          ]}
          rows={rows}
          rowKey={(r) => `${r.id}-${r.divisionId}`}
          rowProps={() => ({ 'data-testid': 'accepted-row' })}
          emptyText={<Typography color="text.secondary">No accepted patients</Typography>}
          sort={sort}
          onSort={(f) => setSort((s) => nextSort(s, f as SortField))}
        />
        <TablePagination component="div" count={total} page={page} onPageChange={(_e, p) => setPage(p)} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} />
      </CardContent>
      <Dialog open={!!confirm} onClose={() => !busy && setConfirm(null)}>
        <DialogTitle>Close the case</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Confirm that {confirm?.patient.firstName} {confirm?.patient.lastName} arrived at {confirm?.divisionName}? The case is closed as transferred to your facility.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" onClick={() => void close()} disabled={busy}>
            Close the case
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
