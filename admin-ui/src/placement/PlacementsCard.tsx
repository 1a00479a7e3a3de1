import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
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
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import StarIcon from '@mui/icons-material/Star';
import { ADD_TASKS_MAX, formatDateTime, type PlacementTask, type ReferringDivisionOption } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { SimpleTable } from '../common/SimpleTable';
import { isCodedError } from '../data/codedError';
import type { AppDataProvider } from '../data/dataProvider';
import { keys, useAppData, useAppQuery, useCaseCommand } from '../data/query';
import { caseRoom, useLiveEvent } from '../live/useLiveEvent';
import { enumLabel } from '../cases/page/caseLabels';
import type { CaseCardProps } from '../cases/types';
import { FullLogDialog } from './full-log/FullLogDialog';

type DivisionOption = ReferringDivisionOption;

/** 5400 s → '1h 30m'; 600 → '0h 10m'. */
export function travelTime(seconds: number | null | undefined): string {
  if (seconds == null) return '';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** What the add-tasks modal says (spec 02 §2: how many tasks, up to ADD_TASKS_MAX, will be added). */
export function addTasksMessage(count: number): string {
  if (count <= 0) return 'No further division fits this case: no task will be added.';
  return `${count} ${count === 1 ? 'task' : 'tasks'} will be added for the best-fitting divisions not yet in the list (at most ${ADD_TASKS_MAX}).`;
}

/** A task's follow-up: the division's hold when it ends after the callback, else the callback (red once due). */
function FollowUp({ task: t }: { task: PlacementTask }) {
  const held = t.holdUntil && (!t.callbackAt || t.holdUntil > t.callbackAt);
  if (held)
    return (
      <Tooltip title={`Division on hold: ${enumLabel(t.holdResult)}`}>
        <span>{formatDateTime(t.holdUntil!)} (hold)</span>
      </Tooltip>
    );
  return t.callbackAt ? <span style={t.dueAt ? { color: '#d32f2f' } : undefined}>{formatDateTime(t.callbackAt)}</span> : '';
}

/**
 * The placements table of the ITP case page (spec 02 §2 "Case page (ITP)"): travel time,
 * facility / division with why it is in the list, address, last call, latest result with its note,
 * follow-up (callback or the division's hold), claim; title actions out-of-state, add tasks, add a
 * division by hand and the full log; the reworked warning; read-only when the case is closed.
 */
export function PlacementsCard({ caseRecord }: CaseCardProps) {
  const caseId = caseRecord.id;
  const notify = useNotify();
  const { ability } = useSession();
  const dp = useAppData();
  // Loaded again when the case's status changes and on each 'placements.updated' of the case.
  const [showWillNotAccept, setShowWillNotAccept] = useState(false);
  const query = useAppQuery(keys.case(caseId, 'placements', caseRecord.status, showWillNotAccept ? 'all' : 'open'), (d) => d.placements(caseId, showWillNotAccept), {
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const error = query.failure ? (isCodedError(query.failure) ? query.failure.message : 'The placements could not be loaded') : null;
  const load = query.reload;
  useLiveEvent(caseRoom(caseId), 'placements.updated', load);
  const command = useCaseCommand(caseId, ['placements', 'details']);
  const [dialog, setDialog] = useState<'add' | 'division' | 'log' | null>(null);
  const [notes, setNotes] = useState('');
  const [divisions, setDivisions] = useState<DivisionOption[]>([]);
  const [division, setDivision] = useState<DivisionOption | null>(null);
  const busy = command.busy;

  if (!ability.can('manage', 'Placement')) return null;
  const closed = caseRecord.status === 'Closed' || !!data?.readOnly;

  const run = async (what: (d: AppDataProvider) => Promise<unknown>, success: string) => {
    try {
      await command.run(what);
      notify(success, { type: 'success' });
      setDialog(null);
    } catch (e) {
      notify(isCodedError(e) ? e.message : 'The action failed', { type: 'error' });
    }
  };

  const openDivision = async () => {
    setDivision(null);
    setDialog('division');
    try {
      const r = await dp.caseCloseOptions(caseId);
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
                      void run((d) => d.setIncludeOutOfState(caseId, e.target.checked), 'Out-of-state choice saved')
                    }
                  />
                }
              />
            )}
            {!closed && data?.canAddTasks && (
              <>
                <Button size="small" onClick={() => { setNotes(''); setDialog('add'); }} data-testid="placements-add-tasks">
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
        {data && (data.hiddenWillNotAccept > 0 || showWillNotAccept) && (
          <FormControlLabel
            sx={{ mb: 1 }}
            label={showWillNotAccept ? 'Include divisions that will not accept (no callback)' : `Include divisions that will not accept (no callback): ${data.hiddenWillNotAccept} hidden`}
            control={
              <Checkbox
                size="small"
                checked={showWillNotAccept}
                onChange={(e) => setShowWillNotAccept(e.target.checked)}
                inputProps={{ 'data-testid': 'placements-include-will-not-accept' } as any}
              />
            }
          />
        )}
        {data && tasks.length === 0 && <Typography color="text.secondary">No placement tasks.</Typography>}
        {tasks.length > 0 && (
          <SimpleTable<PlacementTask>
            testId="placements-table"
            columns={[
              { label: 'Travel time', render: (t) => travelTime(t.travelSeconds) },
              {
                label: 'Facility / division',
                render: (t) => (
                  <>
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
                  </>
                ),
              },
              { label: 'Address', render: (t) => [t.address.city, t.address.state].filter(Boolean).join(', ') },
              { label: 'Last call', render: (t) => (t.lastCall ? formatDateTime(t.lastCall.createdAt) : '') },
              {
                label: 'Latest result',
                render: (t) =>
                  t.lastCall && (
                    <Tooltip title={t.lastCall.note ?? ''}>
                      <span>{enumLabel(t.lastCall.result)}</span>
                    </Tooltip>
                  ),
              },
              { label: 'Follow-up', render: (t) => <FollowUp task={t} /> },
              { label: 'Claim', render: (t) => t.claim?.claimedByName ?? '' },
            ]}
            rows={tasks}
            rowKey={(t) => t.id}
            rowProps={() => ({ 'data-testid': 'placement-row' })}
          />
        )}
      </CardContent>

      <Dialog open={dialog === 'add'} onClose={() => !busy && setDialog(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Add tasks</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }} data-testid="add-tasks-count">
            {addTasksMessage(data?.addTasksCount ?? 0)}
          </DialogContentText>
          <TextField label="Notes" multiline minRows={2} fullWidth value={notes} onChange={(e) => setNotes(e.target.value)} inputProps={{ maxLength: 2000 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)} disabled={busy}>
            Cancel
          </Button>
          <Button
            variant="contained"
            disabled={busy || !data?.addTasksCount}
            onClick={() => void run((d) => d.generatePlacementTasks(caseId, notes.trim() || null), 'Tasks added')}
            data-testid="add-tasks-submit"
          >
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
            onClick={() => void run((d) => d.addPlacementDivision(caseId, division!.divisionId), 'Facility added')}
          >
            Add
          </Button>
        </DialogActions>
      </Dialog>

      <FullLogDialog caseId={caseId} open={dialog === 'log'} onClose={() => setDialog(null)} onUndone={() => void command.refresh()} />
    </Card>
  );
}
