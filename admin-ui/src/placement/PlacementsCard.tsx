import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import StarIcon from '@mui/icons-material/Star';
import { ADD_TASKS_MAX, formatDateTime } from '@crisis/forms';
import { useSession } from '../auth/session';
import { api } from '../data/httpClient';
import { isCodedError } from '../data/codedError';
import { liveSocket } from '../live/liveConnection';
import { enumLabel } from '../cases/page/caseLabels';
import type { CaseCardProps } from '../cases/types';
import { FullLogDialog } from './full-log/FullLogDialog';

export interface PlacementTask {
  id: number;
  caseId: number;
  divisionId: number;
  facilityId: number;
  facilityName: string;
  divisionName: string;
  isPreferredFacility: boolean;
  isVeteranOnlyDivision: boolean;
  address: { city: string | null; state: string | null };
  travelSeconds: number | null;
  reasons: string[] | null;
  origin: string;
  notes: string | null;
  callbackAt: string | null;
  dueAt: string | null;
  lastCall: { id: string; result: string; note: string | null; createdAt: string; createdByName: string } | null;
  holdUntil: string | null;
  holdResult: string | null;
  claim: { id: number; claimedById: number; claimedByName: string } | null;
}
export interface Placements {
  tasks: PlacementTask[];
  reworkedWarning: boolean;
  readOnly: boolean;
  canAddTasks: boolean;
  outOfState: { shown: boolean; enabled: boolean; value: boolean };
}
interface DivisionOption { divisionId: number; divisionName: string; facilityId: number; facilityName: string }

/** 5400 s → '1h 30m'; 600 → '0h 10m'. */
export function travelTime(seconds: number | null | undefined): string {
  if (seconds == null) return '';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Calls onEvent on 'placements.updated' of this case (the case page joins the case room). */
function usePlacementsLive(caseId: number, onEvent: () => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const socket = liveSocket();
    if (!socket) return;
    const join = () => socket.emit('case.join', { caseId });
    const fire = (data: { caseId?: number }) => {
      if (Number(data?.caseId) === caseId) handler.current();
    };
    socket.on('ready', join);
    socket.on('placements.updated', fire);
    if (socket.connected) join();
    return () => {
      socket.off('ready', join);
      socket.off('placements.updated', fire);
    };
  }, [caseId]);
}

/**
 * The placements table of the ITP case page (spec 02 §2 "Case page (ITP)"): travel time,
 * facility / division with why it is in the list, address, last call, latest result with its note,
 * follow-up (callback or the division's hold), claim; title actions out-of-state, add tasks, add a
 * division by hand and the full log; the reworked warning; read-only when the case is closed.
 */
export function PlacementsCard({ caseRecord, onChanged }: CaseCardProps) {
  const caseId = caseRecord.id;
  const notify = useNotify();
  const { ability } = useSession();
  const [data, setData] = useState<Placements | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'add' | 'division' | 'log' | null>(null);
  const [notes, setNotes] = useState('');
  const [divisions, setDivisions] = useState<DivisionOption[]>([]);
  const [division, setDivision] = useState<DivisionOption | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await api.get<Placements>(`/api/cases/${caseId}/placements`));
      setError(null);
    } catch (e) {
      setError(isCodedError(e) ? e.message : 'The placements could not be loaded');
    }
  }, [caseId]);
  useEffect(() => {
    void load();
  }, [load, caseRecord.status]);
  usePlacementsLive(caseId, () => void load());

  if (!ability.can('manage', 'Placement')) return null;
  const closed = caseRecord.status === 'Closed' || !!data?.readOnly;

  const run = async (what: () => Promise<unknown>, success: string) => {
    setBusy(true);
    try {
      await what();
      notify(success, { type: 'success' });
      setDialog(null);
      await load();
      onChanged();
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The action failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const openDivision = async () => {
    setDivision(null);
    setDialog('division');
    try {
      const r = await api.get<{ referring: DivisionOption[] }>(`/api/cases/${caseId}/close-options`);
      const taken = new Set(data?.tasks.map((t) => t.divisionId));
      setDivisions(r.referring.filter((d) => !taken.has(d.divisionId)));
    } catch {
      setDivisions([]);
    }
  };

  const tasks = data?.tasks ?? [];
  return (
    <Card variant="outlined" data-testid="placements-card">
      <CardHeader
        title="Placements"
        titleTypographyProps={{ variant: 'h6' }}
        action={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {data?.outOfState.shown && (
              <FormControlLabel
                label="Include out-of-state facilities"
                control={
                  <Checkbox
                    checked={data.outOfState.value}
                    disabled={closed || !data.outOfState.enabled || busy}
                    onChange={(e) =>
                      void run(() => api.put(`/api/cases/${caseId}/include-out-of-state`, { includeOutOfState: e.target.checked }), 'Out-of-state choice saved')
                    }
                  />
                }
              />
            )}
            {!closed && data?.canAddTasks && (
              <>
                <Button size="small" onClick={() => { setNotes(''); setDialog('add'); }}>
                  Add tasks
                </Button>
                <Button size="small" onClick={() => void openDivision()}>
                  Add a division
                </Button>
              </>
            )}
            <Button size="small" onClick={() => setDialog('log')}>
              Full log
            </Button>
          </Box>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {closed && <Alert severity="info" sx={{ mb: 1 }}>The case is closed: the placements are read-only.</Alert>}
        {data?.reworkedWarning && (
          <Alert severity="warning" sx={{ mb: 1 }} data-testid="reworked-warning">
            The case was reworked: these placement tasks were made before it. Check them before calling.
          </Alert>
        )}
        {error && <Typography color="error">{error}</Typography>}
        {data && tasks.length === 0 && <Typography color="text.secondary">No placement tasks.</Typography>}
        {tasks.length > 0 && (
          <Table size="small" data-testid="placements-table">
            <TableHead>
              <TableRow>
                <TableCell>Travel time</TableCell>
                <TableCell>Facility / division</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>Last call</TableCell>
                <TableCell>Latest result</TableCell>
                <TableCell>Follow-up</TableCell>
                <TableCell>Claim</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {tasks.map((t) => {
                const held = t.holdUntil && (!t.callbackAt || t.holdUntil > t.callbackAt);
                return (
                  <TableRow key={t.id} data-testid="placement-row">
                    <TableCell>{travelTime(t.travelSeconds)}</TableCell>
                    <TableCell>
                      <Tooltip title={t.reasons?.length ? <Box component="ul" sx={{ m: 0, pl: 2 }}>{t.reasons.map((r) => <li key={r}>{r}</li>)}</Box> : 'Added by hand'}>
                        <span>
                          {t.isPreferredFacility && <StarIcon fontSize="inherit" color="warning" titleAccess="Preferred facility" sx={{ mr: 0.5, verticalAlign: 'middle' }} />}
                          {t.facilityName} / {t.divisionName}
                          {t.isVeteranOnlyDivision && (
                            <Typography component="span" variant="caption" sx={{ ml: 0.5 }} color="primary" title="Veterans only">
                              (VA)
                            </Typography>
                          )}
                        </span>
                      </Tooltip>
                      {t.notes && (
                        <Typography variant="caption" color="text.secondary" display="block">
                          {t.notes}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{[t.address.city, t.address.state].filter(Boolean).join(', ')}</TableCell>
                    <TableCell>{t.lastCall ? formatDateTime(t.lastCall.createdAt) : ''}</TableCell>
                    <TableCell>
                      {t.lastCall && (
                        <Tooltip title={t.lastCall.note ?? ''}>
                          <span>{enumLabel(t.lastCall.result)}</span>
                        </Tooltip>
                      )}
                    </TableCell>
                    <TableCell>
                      {held ? (
                        <Tooltip title={`Division on hold: ${enumLabel(t.holdResult)}`}>
                          <span>{formatDateTime(t.holdUntil!)} (hold)</span>
                        </Tooltip>
                      ) : t.callbackAt ? (
                        <span style={t.dueAt ? { color: '#d32f2f' } : undefined}>{formatDateTime(t.callbackAt)}</span>
                      ) : (
                        ''
                      )}
                    </TableCell>
                    <TableCell>{t.claim?.claimedByName ?? ''}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>

      <Dialog open={dialog === 'add'} onClose={() => !busy && setDialog(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Add tasks</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>Up to {ADD_TASKS_MAX} tasks will be added for the best-fitting divisions not yet in the list.</DialogContentText>
          <TextField label="Notes" multiline minRows={2} fullWidth value={notes} onChange={(e) => setNotes(e.target.value)} inputProps={{ maxLength: 2000 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" disabled={busy} onClick={() => void run(() => api.post(`/api/placement-tasks/generate/${caseId}`, { notes: notes.trim() || null }), 'Tasks added')}>
            Add tasks
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={dialog === 'division'} onClose={() => !busy && setDialog(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Add a division</DialogTitle>
        <DialogContent>
          <Autocomplete
            sx={{ mt: 1 }}
            options={divisions}
            value={division}
            onChange={(_e, v) => setDivision(v)}
            groupBy={(o) => o.facilityName}
            getOptionLabel={(o) => `${o.facilityName} / ${o.divisionName}`}
            isOptionEqualToValue={(a, b) => a.divisionId === b.divisionId}
            renderInput={(p) => <TextField {...p} label="Referring division" />}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)} disabled={busy}>
            Cancel
          </Button>
          <Button
            variant="contained"
            disabled={busy || !division}
            onClick={() => void run(() => api.post('/api/placement-tasks/create', { caseId, divisionId: division!.divisionId }), 'Facility added')}
          >
            Add
          </Button>
        </DialogActions>
      </Dialog>

      <FullLogDialog caseId={caseId} open={dialog === 'log'} onClose={() => setDialog(null)} onUndone={() => { void load(); onChanged(); }} />
    </Card>
  );
}
