import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TablePagination,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { caseReference, formatDateTime, logDateProblems } from '@crisis/forms/core';
import { downloadCsv } from '../../data/download';
import { isCodedError } from '../../data/codedError';
import type { DivisionLogEntry } from '@crisis/forms/core';
import { downloadPdf } from '../../data/download';
import { useAppData } from '../../data/query';
import { enumLabel } from '../../cases/page/caseLabels';
import { useDebounced } from '../../common/useDebounced';
import { undoneRowSx } from '../../common/tableParts';
import { SimpleTable } from '../../common/SimpleTable';

const PAGE_SIZE = 10;
const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The date rules of the search (spec 02 §5), as the server checks them (forms' logDateProblems). */
export function divisionLogDateErrors(from: string, to: string): { from?: string; to?: string } {
  const errors: { from?: string; to?: string } = {};
  for (const e of logDateProblems({ from: from || null, to: to || null }, new Date(), '')) errors[e.field as 'from' | 'to'] ??= e.message;
  return errors;
}

/**
 * The division log of the call log (spec 02 §2 "Division log modal"): every call made to the
 * division (a bulk submission is one entry listing its patients), searched by patient name and
 * dates, default contact date descending, with PDF and CSV exports.
 */
export function DivisionLogModal({ divisionId, divisionName, open, onClose }: { divisionId: number; divisionName?: string; open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  const [patientName, setPatientName] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [order, setOrder] = useState<'ASC' | 'DESC'>('DESC');
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<DivisionLogEntry[]>([]);
  const [total, setTotal] = useState(0);
  const name = useDebounced(patientName, 400);
  const errors = divisionLogDateErrors(from, to);
  const invalid = !!(errors.from || errors.to);

  const filter: Record<string, unknown> = {};
  if (name.trim()) filter.patientName = name.trim();
  if (from) filter.from = new Date(`${from}T00:00:00`).toISOString();
  if (to) filter.to = new Date(`${to}T23:59:59.999`).toISOString();
  const query = `sort=${encodeURIComponent(JSON.stringify(['dateContact', order]))}&filter=${encodeURIComponent(JSON.stringify(filter))}`;

  const load = useCallback(async () => {
    if (invalid) return;
    try {
      const res = await dp.divisionLog(divisionId, query, page, PAGE_SIZE);
      setRows(res.rows);
      setTotal(res.total);
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The division log could not be loaded', { type: 'error' });
    }
  }, [divisionId, query, page, invalid, notify, dp]);
  useEffect(() => {
    if (open) void load();
  }, [open, load]);
  useEffect(() => setPage(0), [query]);

  const doExport = async (kind: 'csv' | 'pdf') => {
    const url = `/api/placement-tasks/division/${divisionId}/log/${kind}?${query}&tz=${encodeURIComponent(tz())}`;
    try {
      await (kind === 'csv' ? downloadCsv(url) : downloadPdf(url));
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The export failed', { type: 'error' });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullWidth data-testid="division-log">
      <DialogTitle>Division log{divisionName ? `: ${divisionName}` : ''}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 1 }}>
          <TextField size="small" label="Patient name" value={patientName} onChange={(e) => setPatientName(e.target.value)} inputProps={{ maxLength: 200 }} />
          <TextField size="small" type="date" label="From" value={from} onChange={(e) => setFrom(e.target.value)} InputLabelProps={{ shrink: true }} inputProps={{ min: '1902-01-01', max: today() }} error={!!errors.from} helperText={errors.from} />
          <TextField size="small" type="date" label="To" value={to} onChange={(e) => setTo(e.target.value)} InputLabelProps={{ shrink: true }} inputProps={{ min: from || '1902-01-01', max: today() }} error={!!errors.to} helperText={errors.to} />
        </Box>
        <SimpleTable<DivisionLogEntry>
          columns={[
            { label: 'Date contact', sortField: 'dateContact', render: (r) => formatDateTime(r.createdAt) },
            { label: 'User', render: (r) => r.user.name },
            { label: 'Spoke with', render: (r) => r.spokeWith },
            { label: 'Patients', render: (r) => r.patients.map((p) => `${p.name} ${caseReference(p.caseId)}`).join(', ') },
            {
              label: 'Result',
              render: (r) => (
                <Tooltip title={r.note ?? ''}>
                  <span>{enumLabel(r.result)}</span>
                </Tooltip>
              ),
            },
            { label: 'Follow-up', render: (r) => (r.callbackAt ? formatDateTime(r.callbackAt) : '') },
          ]}
          rows={rows}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ sx: undoneRowSx(r.undone) })}
          emptyText={<Typography color="text.secondary">No calls</Typography>}
          sort={{ field: 'dateContact', order }}
          onSort={() => setOrder((o) => (o === 'DESC' ? 'ASC' : 'DESC'))}
        />
        <TablePagination component="div" count={total} page={page} onPageChange={(_e, p) => setPage(p)} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void doExport('csv')} disabled={invalid}>
          Export CSV
        </Button>
        <Button onClick={() => void doExport('pdf')} disabled={invalid}>
          Export PDF
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
