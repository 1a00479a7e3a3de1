import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNotify } from 'react-admin';
import {
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TablePagination,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { CALL_RESULTS, LOG_PAGE_SIZE, formatDateTime, placementLogFilterRules } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { downloadCsv } from '../../data/download';
import { isCodedError } from '../../data/codedError';
import { downloadPdf } from '../../data/download';
import { keys, useAppData, useAppMutation } from '../../data/query';
import type { PlacementLogRow } from '@crisis/forms/core';
import { enumLabel } from '../../cases/page/caseLabels';
import { SimpleTable } from '../../common/SimpleTable';
import { nextSort, undoneRowSx, type Sort } from '../../common/tableParts';

type SortField = 'dateContact' | 'coordinator' | 'referringFacility' | 'result' | 'callbackAt';
interface Option { id: number; name: string }

const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
/** 'yyyy-MM-dd' of a date input → the start / end of that day in the user's zone, as ISO. */
const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : null);
const dayEnd = (d: string) => (d ? new Date(`${d}T23:59:59.999`).toISOString() : null);

/**
 * The placement activity full log (spec 02 §2): filters from / to, referring facilities, results
 * and coordinators; sortable columns (default dateContact descending); undo with confirmation
 * (its own text for bulk results) when the row can be undone; undone rows crossed out; CSV and
 * PDF exports for ITP and facility staff.
 */
export function FullLogDialog({ caseId, open, onClose, onUndone }: { caseId: number; open: boolean; onClose: () => void; onUndone?: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  // An undone call changes the case's placements.
  const undoCall = useAppMutation((d, row: PlacementLogRow) => d.undoPlacementCall(row.placementTaskId, row.placementTaskCallId), [keys.case(caseId, 'placements')]);
  const { ability } = useSession();
  const [rows, setRows] = useState<PlacementLogRow[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [allRows, setAllRows] = useState<PlacementLogRow[]>([]);
  const [sort, setSort] = useState<Sort<SortField>>({ field: 'dateContact', order: 'DESC' });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [facilities, setFacilities] = useState<Option[]>([]);
  const [results, setResults] = useState<string[]>([]);
  const [coordinators, setCoordinators] = useState<Option[]>([]);
  const [confirm, setConfirm] = useState<PlacementLogRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const filter = useMemo(() => {
    const f: Record<string, unknown> = {};
    if (from) f.from = dayStart(from);
    if (to) f.to = dayEnd(to);
    if (facilities.length) f.facilityIds = facilities.map((x) => x.id);
    if (results.length) f.results = results;
    if (coordinators.length) f.coordinatorIds = coordinators.map((x) => x.id);
    return f;
  }, [from, to, facilities, results, coordinators]);
  const query = `sort=${encodeURIComponent(JSON.stringify([sort.field, sort.order]))}&filter=${encodeURIComponent(JSON.stringify(filter))}`;
  // The search's date rules, as the server checks them (spec 02 §5: from has a minimum date, to not earlier than from).
  const dateErrors: Record<string, string> = {};
  for (const e of placementLogFilterRules({ from: filter.from, to: filter.to })) dateErrors[e.field] ??= e.message;
  const invalid = !!(dateErrors.from || dateErrors.to);

  const load = useCallback(async () => {
    if (invalid) return;
    try {
      const res = await dp.placementLog(caseId, query, page, LOG_PAGE_SIZE);
      setRows(res.rows);
      setTotal(res.total);
      setError(null);
    } catch (e) {
      setError(isCodedError(e) ? e.message : 'The log could not be loaded');
    }
  }, [caseId, query, page, invalid, dp]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);
  useEffect(() => setPage(0), [query]);
  // The choices of the facility and coordinator filters come from the unfiltered log.
  useEffect(() => {
    if (open)
      void dp
        .placementLog(caseId, '', 0, 1000)
        .then((r) => setAllRows(r.rows))
        .catch(() => undefined);
  }, [open, caseId, total, dp]);
  const facilityChoices = useMemo(() => uniq(allRows.map((r) => ({ id: r.referringFacilityDivisionInfo.facilityId, name: r.referringFacilityDivisionInfo.facilityName }))), [allRows]);
  const coordinatorChoices = useMemo(() => uniq(allRows.map((r) => ({ id: r.coordinatorId, name: r.crisisCoordinator }))), [allRows]);


  const undo = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      await undoCall.mutateAsync(confirm);
      notify('The call was undone', { type: 'success' });
      setConfirm(null);
      await load();
      onUndone?.();
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The call could not be undone', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const canExport = ability.can('read', 'PlacementLog');
  const exportUrl = (kind: 'csv' | 'pdf') => `/api/placement-tasks/log/${caseId}/${kind}?${query}&tz=${encodeURIComponent(tz())}`;
  const doExport = async (kind: 'csv' | 'pdf') => {
    try {
      await (kind === 'csv' ? downloadCsv(exportUrl('csv')) : downloadPdf(exportUrl('pdf')));
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The export failed', { type: 'error' });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xl" fullWidth data-testid="placement-full-log">
      <DialogTitle>Placement activity</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2, mt: 1 }}>
          <TextField label="From" type="date" size="small" value={from} onChange={(e) => setFrom(e.target.value)} InputLabelProps={{ shrink: true }} inputProps={{ min: '1902-01-01', 'data-testid': 'log-from' }} error={!!dateErrors.from} helperText={dateErrors.from} />
          <TextField
            label="To"
            type="date"
            size="small"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            InputLabelProps={{ shrink: true }}
            inputProps={{ min: from || '1902-01-01', 'data-testid': 'log-to' }}
            error={!!dateErrors.to}
            helperText={dateErrors.to}
          />
          <Autocomplete multiple size="small" sx={{ minWidth: 220 }} options={facilityChoices} value={facilities} getOptionLabel={(o) => o.name} isOptionEqualToValue={(a, b) => a.id === b.id} onChange={(_e, v) => setFacilities(v)} renderInput={(p) => <TextField {...p} label="Referring facilities" />} />
          <Autocomplete multiple size="small" sx={{ minWidth: 220 }} options={[...CALL_RESULTS] as string[]} value={results} getOptionLabel={(o: string) => enumLabel(o)} onChange={(_e, v) => setResults(v as string[])} renderInput={(p) => <TextField {...p} label="Results" />} />
          <Autocomplete multiple size="small" sx={{ minWidth: 200 }} options={coordinatorChoices} value={coordinators} getOptionLabel={(o) => o.name} isOptionEqualToValue={(a, b) => a.id === b.id} onChange={(_e, v) => setCoordinators(v)} renderInput={(p) => <TextField {...p} label="Coordinators" />} />
        </Box>
        {error && <Typography color="error">{error}</Typography>}
        <SimpleTable<PlacementLogRow>
          columns={[
            { label: 'Date contact', sortField: 'dateContact', render: (r) => formatDateTime(r.createdAt) },
            { label: 'Coordinator', sortField: 'coordinator', render: (r) => r.crisisCoordinator },
            {
              label: 'Referring facility / division',
              sortField: 'referringFacility',
              render: (r) => (
                <Tooltip title={r.referringFacilityDivisionInfo.facilityAddress}>
                  <span>
                    {r.referringFacilityDivisionInfo.facilityName} / {r.referringFacilityDivisionInfo.divisionName}
                  </span>
                </Tooltip>
              ),
            },
            { label: 'Spoke with', render: (r) => r.spokeWith },
            {
              label: 'Latest result',
              sortField: 'result',
              render: (r) => (
                <Tooltip title={r.note ?? ''}>
                  <span>{enumLabel(r.result)}{r.bulkId ? ' (bulk)' : ''}{r.note ? ' 🗒' : ''}</span>
                </Tooltip>
              ),
            },
            { label: 'Follow-up', sortField: 'callbackAt', render: (r) => (r.callbackAt ? formatDateTime(r.callbackAt) : '') },
            {
              align: 'right',
              render: (r) =>
                r.canUndo &&
                ability.can('manage', 'Placement') && (
                  <Button size="small" onClick={() => setConfirm(r)}>
                    Undo
                  </Button>
                ),
            },
          ]}
          rows={rows}
          rowKey={(r) => r.placementTaskCallId}
          rowProps={(r) => ({ 'data-testid': 'log-row', 'data-undone': r.undone ? 'true' : 'false', sx: undoneRowSx(r.undone) })}
          emptyText={<Typography color="text.secondary">No calls</Typography>}
          sort={sort}
          onSort={(f) => setSort((s) => nextSort(s, f as SortField, f === 'dateContact' ? 'DESC' : 'ASC'))}
        />
        <TablePagination
          component="div"
          count={total}
          page={page}
          onPageChange={(_e, p) => setPage(p)}
          rowsPerPage={LOG_PAGE_SIZE}
          rowsPerPageOptions={[LOG_PAGE_SIZE]}
          data-testid="log-pagination"
        />
      </DialogContent>
      <DialogActions>
        {canExport && (
          <>
            <Button onClick={() => void doExport('csv')}>Export CSV</Button>
            <Button onClick={() => void doExport('pdf')}>Export PDF</Button>
          </>
        )}
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      <Dialog open={!!confirm} onClose={() => !busy && setConfirm(null)}>
        <DialogTitle>Undo the call</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {confirm?.bulkId
              ? `This ${enumLabel(confirm.result)} result was logged as a bulk result for several patients. Only this patient's call is undone; the other patients keep theirs. Undo it?`
              : `Undo the ${enumLabel(confirm?.result)} call? The task shows its previous result again.`}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => void undo()} disabled={busy} variant="contained">
            Undo
          </Button>
        </DialogActions>
      </Dialog>
    </Dialog>
  );
}

function uniq(options: Option[]): Option[] {
  const seen = new Map<number, Option>();
  for (const o of options) if (!seen.has(o.id)) seen.set(o.id, o);
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}
