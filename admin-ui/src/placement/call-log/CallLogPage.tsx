import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DivisionLogModal } from '../division-log/DivisionLogModal';
import { useNotify } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  CircularProgress,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  ACCEPT_AGES,
  ACCEPT_GENDERS,
  CALL_LOG_MESSAGES,
  CALL_RESULTS,
  ErrorCode,
  acceptGridEnabled,
  alternateResult,
  callLogProblems,
  contactLines,
  defaultFollowUpMinutes,
  divisionFacts,
  followUpOptions,
  formatDateTime,
  type AcceptGrid,
} from '@crisis/forms/core';
import { isCodedError } from '../../data/codedError';
import { enumLabel } from '../../cases/page/caseLabels';
import type { CallEntry, CallLogData, CallLogTask } from '@crisis/forms/core';
import { callLogLease } from '../../data/methods/placement';
import { keys, useAppData, useAppMutation, useAppQuery } from '../../data/query';
import { BulkDialog, CallbackDialog, FollowUpSelect, MessageDialog, NoAnswerDialog, NoteDialog, type BulkValues } from './CallLogDialogs';
import { useLeaveGuard } from './useLeaveGuard';

interface RowState {
  selected: boolean;
  result: string | null;
  note: string;
  spokeWith: string;
  minutes: number | null;
  accept: AcceptGrid;
}

const emptyGrid = (): AcceptGrid => ({
  male: { adolescent: false, adult: false, geriatric: false },
  female: { adolescent: false, adult: false, geriatric: false },
});
const emptyRow = (selected: boolean): RowState => ({ selected, result: null, note: '', spokeWith: '', minutes: null, accept: emptyGrid() });
const hasContent = (r: RowState) =>
  !!(r.result || r.note || r.spokeWith || r.minutes || ACCEPT_GENDERS.some((g) => ACCEPT_AGES.some((a) => r.accept[g][a])));

/** The nearest follow-up choice to a stored callback time (drafts keep the time, not the choice). */
function nearestMinutes(at: string | null | undefined, options: number[]): number | null {
  if (!at) return null;
  const left = (Date.parse(at) - Date.now()) / 60_000;
  if (!Number.isFinite(left) || left <= 0) return null;
  return options.reduce((best, m) => (Math.abs(m - left) < Math.abs(best - left) ? m : best), options[0]);
}

function initialRows(data: CallLogData, options: number[]): Record<number, RowState> {
  const anyDraft = data.tasks.some((t) => t.draft);
  const anyHold = data.tasks.some((t) => t.onHold);
  const out: Record<number, RowState> = {};
  for (const t of data.tasks) {
    if (t.draft) {
      out[t.id] = {
        selected: true,
        result: t.draft.result ?? null,
        note: t.draft.note ?? '',
        spokeWith: t.draft.spokeWith ?? '',
        minutes: nearestMinutes(t.draft.callbackAt, options),
        accept: { ...emptyGrid(), ...(t.draft.accept ?? {}) },
      };
    } else out[t.id] = emptyRow(!anyDraft && anyHold && t.onHold);
  }
  return out;
}

const entry = (taskId: number, r: RowState, now = Date.now()): CallEntry => ({
  placementTaskId: taskId,
  result: r.result,
  note: r.note.trim() || null,
  callbackAt: r.minutes ? new Date(now + r.minutes * 60_000).toISOString() : null,
  spokeWith: r.spokeWith.trim() || null,
  accept: r.accept,
});

/**
 * /call-log/claim/{claimId} (spec 02 §2 "Call log", §4, §5): the tasks of the claimed division
 * across cases. The claim is renewed while the page is open; the typed rows are kept as a draft
 * (autosaved); leaving is blocked until the log is saved or cancelled.
 */
export function CallLogPage() {
  const claimId = Number(useParams().claimId);
  const notify = useNotify();
  const navigate = useNavigate();
  const [data, setData] = useState<CallLogData | null>(null);
  const [rows, setRows] = useState<Record<number, RowState>>({});
  const [problems, setProblems] = useState<Record<number, Record<string, string>>>({});
  const [bulk, setBulk] = useState(false);
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ title: string; message: string; leave?: boolean } | null>(null);
  const [modal, setModal] = useState<null | 'bulk' | 'noAnswer' | 'callback' | 'divisionLog'>(null);
  const [noteFor, setNoteFor] = useState<number | null>(null);
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);
  const dp = useAppData();
  // A saved call log changes the calls card's rows.
  const submitCalls = useAppMutation((d, a: { calls: CallEntry[]; bulk: boolean }) => d.submitCalls(claimId, a.calls, a.bulk), [keys.calls()]);
  const edited = useRef(false);
  const released = useRef(false);
  const expiresAt = useRef<number>(0);

  const options = useMemo(() => followUpOptions(!!data?.division.extendMaximumCallbackTime), [data]);
  const grid = useMemo(() => (data ? acceptGridEnabled(data.division) : null), [data]);
  const dirty = useMemo(() => Object.values(rows).some((r) => r.selected && hasContent(r)), [rows]);
  const leaving = !!message?.leave;
  const bypass = useLeaveGuard(dirty && !leaving, (proceed) => setPendingLeave(() => proceed));

  const release = useCallback(async () => {
    if (released.current) return;
    released.current = true;
    await dp.releaseDivisionClaim(claimId).catch(() => undefined);
  }, [claimId, dp]);

  const leave = useCallback(
    (to = '/dashboard') => {
      bypass.current = true;
      navigate(to);
    },
    [navigate, bypass],
  );

  const expired = useCallback(() => {
    released.current = true;
    setMessage({ title: 'The claim has expired', message: 'Your claim on this division has expired. Claim the division again from the calls card.', leave: true });
  }, []);

  // Load once (and restore the draft): the page edits its own copy from then on.
  const loadQuery = useAppQuery(keys.callLog(claimId), (d) => d.callLog(claimId), { staleTime: Infinity, gcTime: 0 });
  useEffect(() => {
    const d = loadQuery.data;
    if (d) {
      expiresAt.current = Date.parse(d.expiresAt);
      setData(d);
      setRows(initialRows(d, followUpOptions(!!d.division.extendMaximumCallbackTime)));
    }
  }, [loadQuery.data]);
  useEffect(() => {
    const e = loadQuery.failure;
    if (!e) return;
    if (isCodedError(e) && e.code === ErrorCode.ClaimOverdueOrInactive) expired();
    else setLoadError(e.message);
  }, [loadQuery.failure, expired]);

  // Claim renewal: every 60 s, never later than half of the remaining lease.
  useEffect(() => {
    if (!data) return;
    let stopped = false;
    let timer: number | undefined;
    const lease = callLogLease(claimId);
    const schedule = () => {
      const remaining = expiresAt.current - Date.now();
      const delay = Math.max(500, Math.min(60_000, remaining / 2));
      timer = window.setTimeout(renew, delay);
    };
    const renew = async () => {
      if (stopped || released.current) return;
      try {
        const claim = await dp.extendDivisionClaim(claimId, lease);
        expiresAt.current = Date.parse(claim.expiresAt);
        if (!stopped) schedule();
      } catch (e) {
        if (isCodedError(e) && (e.code === ErrorCode.ClaimOverdueOrInactive || e.status === 404 || e.status === 403)) {
          stopped = true;
          if (!released.current) expired();
        } else if (!stopped) timer = window.setTimeout(renew, 2000);
      }
    };
    schedule();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [data, claimId, expired, dp]);

  // Release the claim when the page goes away without save / cancel (e.g. after the expiry dialog).
  const loaded = useRef(false);
  loaded.current = !!data;
  useEffect(() => () => void (loaded.current && release()), [release]);

  // Draft autosave (debounced 1 s) of what was typed.
  useEffect(() => {
    if (!data || !edited.current || released.current) return;
    const t = window.setTimeout(() => {
      const calls = data.tasks.filter((task) => rows[task.id]?.selected && hasContent(rows[task.id])).map((task) => entry(task.id, rows[task.id]));
      dp.saveCallsDraft(claimId, calls).catch((e) => {
        if (isCodedError(e) && e.code === ErrorCode.ClaimOverdueOrInactive) expired();
      });
    }, 1000);
    return () => window.clearTimeout(t);
  }, [rows, data, claimId, expired, dp]);

  const update = (taskId: number, change: Partial<RowState> | ((r: RowState) => Partial<RowState>)) => {
    edited.current = true;
    setRows((all) => {
      const r = all[taskId];
      const patch = typeof change === 'function' ? change(r) : change;
      return { ...all, [taskId]: { ...r, ...patch } };
    });
    setProblems((p) => (p[taskId] ? { ...p, [taskId]: {} } : p));
  };
  const toggle = (taskId: number, selected: boolean) =>
    // Unselecting a task clears its result, note and callback.
    update(taskId, (r) => (selected ? { selected } : { ...emptyRow(false), spokeWith: r.spokeWith, accept: r.accept }));
  const setResult = (taskId: number, result: string | null) => update(taskId, { result, minutes: result ? defaultFollowUpMinutes(result) : null });

  const selectedTasks = data?.tasks.filter((t) => rows[t.id]?.selected) ?? [];
  const allSelected = !!data?.tasks.length && selectedTasks.length === data.tasks.length;
  const applyToSelected = (patch: Partial<RowState>) => {
    edited.current = true;
    setRows((all) => {
      const next = { ...all };
      for (const t of selectedTasks) next[t.id] = { ...next[t.id], ...patch };
      return next;
    });
    setProblems({});
  };
  const requireSelection = () => {
    if (selectedTasks.length) return true;
    notify(CALL_LOG_MESSAGES.selectPatient, { type: 'warning' });
    return false;
  };

  const handleError = (e: unknown, ids: number[]) => {
    if (isCodedError(e)) {
      if (e.code === ErrorCode.ClaimOverdueOrInactive) return expired();
      if (e.code === ErrorCode.CaseIsClosed)
        return setMessage({ title: 'The case is closed', message: 'A selected case was closed meanwhile: its calls can no longer be logged. Unselect it and save again.' });
      if (e.code === ErrorCode.CaseIsReworked)
        return setMessage({ title: 'The case was reworked', message: 'A selected case is no longer contacting service organizations: its calls can no longer be logged. Unselect it and save again.' });
      if (e.fields.length) {
        const byRow: Record<number, Record<string, string>> = {};
        let general = '';
        for (const f of e.fields) {
          const m = /^calls\.(\d+)\.(\w+)/.exec(f.field ?? '');
          if (m && ids[Number(m[1])] !== undefined) (byRow[ids[Number(m[1])]] ??= {})[m[2]] ??= f.message;
          else general ||= f.message;
        }
        setProblems(byRow);
        if (general) notify(general, { type: 'error' });
        return;
      }
    }
    notify((e as Error)?.message ?? 'Action failed', { type: 'error' });
  };

  const save = async () => {
    if (!data || !requireSelection()) return;
    const now = Date.now();
    const calls = selectedTasks.map((t) => entry(t.id, rows[t.id], now));
    const ids = selectedTasks.map((t) => t.id);
    const found = callLogProblems(calls, { now: new Date(now), allowExtended: () => data.division.extendMaximumCallbackTime, bulk, acceptEnabled: () => grid });
    if (Object.keys(found).length) {
      const byRow: Record<number, Record<string, string>> = {};
      for (const [field, key] of Object.entries(found)) {
        const m = /^calls\.(\d+)\.(\w+)/.exec(field);
        if (m) (byRow[ids[Number(m[1])]] ??= {})[m[2]] = CALL_LOG_MESSAGES[key] ?? key;
      }
      setProblems(byRow);
      return;
    }
    setBusy(true);
    try {
      await submitCalls.mutateAsync({ calls, bulk });
      notify('Call log saved', { type: 'success' });
      await release();
      leave();
    } catch (e) {
      handleError(e, ids);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async (then?: () => void) => {
    setBusy(true);
    // Cancel discards the draft and releases the claim.
    if (!released.current) await dp.saveCallsDraft(claimId, []).catch(() => undefined);
    await release();
    setBusy(false);
    if (then) then();
    else leave();
  };

  if (loadError) return <Alert severity="error">{loadError}</Alert>;

  const d = data?.division;
  // The division's own lines first (with their extensions), then the facility's.
  const phones = d ? [...contactLines(d.contacts), ...contactLines(d.facility.contacts)] : [];
  const uniquePhones = phones
    .filter((p, i) => phones.findIndex((q) => q.label === p.label && q.value === p.value) === i)
    .sort((x, y) => (x.label === y.label ? 0 : x.label === 'Phone' ? -1 : 1));

  return (
    <Box data-testid="call-log-page" sx={{ pb: 4 }}>
      {!data || !d || !grid ? (
        !message && <CircularProgress />
      ) : (
        <>
          <Card sx={{ mb: 2 }} data-testid="call-log-header">
            <CardContent>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
                <Box>
                  <Typography variant="h5" data-testid="call-log-division">
                    {d.facility.name} / {d.name}
                  </Typography>
                  <Typography color="text.secondary">
                    {[d.referringType && enumLabel(d.referringType), [d.facility.city, d.facility.state].filter(Boolean).join(', ')].filter(Boolean).join(' · ')}
                  </Typography>
                  {d.description && (
                    <Typography variant="body2" sx={{ mt: 0.5, maxWidth: 720, whiteSpace: 'pre-line' }} data-testid="call-log-description">
                      {d.description}
                    </Typography>
                  )}
                  <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap', gap: 0.5 }} data-testid="call-log-facts">
                    {divisionFacts(d).map((f) => (
                      <Chip key={f} size="small" variant="outlined" label={f} data-testid="call-log-fact" />
                    ))}
                  </Stack>
                  <Stack direction="row" spacing={2} sx={{ mt: 1, flexWrap: 'wrap' }}>
                    {uniquePhones.map((p, i) => (
                      <Typography key={i} variant="body2" data-testid="call-log-contact">
                        {p.label}: {p.value}
                      </Typography>
                    ))}
                  </Stack>
                  {d.hold && (
                    <Alert severity="warning" sx={{ mt: 1 }} data-testid="call-log-hold">
                      On hold ({enumLabel(d.hold.result)}) until {formatDateTime(d.hold.until)}
                    </Alert>
                  )}
                </Box>
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
                  <Button variant="outlined" onClick={() => requireSelection() && setModal('noAnswer')} data-testid="call-log-no-answer">
                    No answer
                  </Button>
                  <Button variant="outlined" onClick={() => requireSelection() && setModal('bulk')} data-testid="call-log-bulk">
                    Bulk change
                  </Button>
                  <Button variant="outlined" onClick={() => requireSelection() && setModal('callback')} data-testid="call-log-callback">
                    Callback time
                  </Button>
                  <Button variant="outlined" onClick={() => setModal('divisionLog')} data-testid="call-log-division-log">
                    Division log
                  </Button>
                </Stack>
              </Box>
            </CardContent>
          </Card>

          <Card>
            {/* Wider than the window (tablets, 200 % zoom): the table scrolls in its own box, not the page. */}
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="call-log-table">
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={allSelected}
                        indeterminate={!!selectedTasks.length && !allSelected}
                        onChange={(e) => data.tasks.forEach((t) => toggle(t.id, e.target.checked))}
                        inputProps={{ 'aria-label': 'Select all', 'data-testid': 'call-log-select-all' } as any}
                      />
                    </TableCell>
                    <TableCell>Patient</TableCell>
                    <TableCell>Gender / age</TableCell>
                    <TableCell>Source facility</TableCell>
                    <TableCell>Last call</TableCell>
                    <TableCell>Callback</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.tasks.map((t) => (
                    <TaskRows
                      key={t.id}
                      task={t}
                      row={rows[t.id] ?? emptyRow(false)}
                      problems={problems[t.id] ?? {}}
                      options={options}
                      grid={grid}
                      onToggle={(s) => toggle(t.id, s)}
                      onResult={(r) => setResult(t.id, r)}
                      onChange={(patch) => update(t.id, patch)}
                      onNote={() => setNoteFor(t.id)}
                    />
                  ))}
                  {!data.tasks.length && (
                    <TableRow>
                      <TableCell colSpan={6} sx={{ color: 'text.secondary' }}>
                        No tasks for this division.
                      </TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </Box>
          </Card>

          <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
            {bulk && <Chip label="Bulk change" color="info" size="small" sx={{ alignSelf: 'center' }} data-testid="call-log-bulk-on" />}
            <Button onClick={() => void cancel()} disabled={busy} data-testid="call-log-cancel">
              Cancel
            </Button>
            <Button variant="contained" onClick={() => void save()} disabled={busy} data-testid="call-log-save">
              Save
            </Button>
          </Stack>
        </>
      )}

      <NoteDialog
        open={noteFor !== null}
        initial={noteFor !== null ? rows[noteFor]?.note ?? '' : ''}
        onClose={() => setNoteFor(null)}
        onSave={(note) => {
          if (noteFor !== null) update(noteFor, { note });
          setNoteFor(null);
        }}
      />
      <NoAnswerDialog
        open={modal === 'noAnswer'}
        options={options}
        onClose={() => setModal(null)}
        onApply={(result, minutes) => {
          applyToSelected({ result, minutes });
          setModal(null);
        }}
      />
      <CallbackDialog
        open={modal === 'callback'}
        options={options}
        onClose={() => setModal(null)}
        onApply={(minutes) => {
          applyToSelected({ minutes });
          setModal(null);
        }}
      />
      <BulkDialog
        open={modal === 'bulk'}
        options={options}
        onClose={() => setModal(null)}
        onApply={(v: BulkValues) => {
          applyToSelected({ result: v.result, minutes: v.minutes, spokeWith: v.spokeWith, ...(v.note ? { note: v.note } : {}) });
          setBulk(true);
          setModal(null);
        }}
      />
      {data && (
        <DivisionLogModal divisionId={data.division.id} divisionName={data.division.name} open={modal === 'divisionLog'} onClose={() => setModal(null)} />
      )}
      <MessageDialog
        content={pendingLeave ? { title: 'Unsaved call log', message: 'Save the call log, or cancel it to leave without saving.' } : null}
        onClose={() => setPendingLeave(null)}
        actions={
          <>
            <Button onClick={() => setPendingLeave(null)} data-testid="leave-stay">
              Stay
            </Button>
            <Button
              color="error"
              onClick={() => {
                const proceed = pendingLeave;
                setPendingLeave(null);
                void cancel(() => proceed?.());
              }}
              data-testid="leave-cancel-log"
            >
              Cancel call log and leave
            </Button>
          </>
        }
      />
      <MessageDialog
        content={message}
        onClose={() => {
          const m = message;
          setMessage(null);
          if (m?.leave) leave();
        }}
      />
    </Box>
  );
}

function TaskRows({
  task: t,
  row,
  problems,
  options,
  grid,
  onToggle,
  onResult,
  onChange,
  onNote,
}: {
  task: CallLogTask;
  row: RowState;
  problems: Record<string, string>;
  options: number[];
  grid: AcceptGrid;
  onToggle: (selected: boolean) => void;
  onResult: (result: string | null) => void;
  onChange: (patch: Partial<RowState>) => void;
  onNote: () => void;
}) {
  const alternate = row.result ? alternateResult(row.result) : null;
  return (
    <Fragment>
      <TableRow selected={row.selected} data-testid="call-log-row" data-task-id={t.id} data-case-id={t.caseId} data-on-hold={t.onHold ? 'true' : 'false'}>
        <TableCell padding="checkbox" sx={{ borderBottom: row.selected ? 'none' : undefined }}>
          <Checkbox checked={row.selected} onChange={(e) => onToggle(e.target.checked)} inputProps={{ 'data-testid': 'call-log-row-select', 'aria-label': `Select ${t.lastName}, ${t.firstName}` } as any} />
        </TableCell>
        <TableCell sx={{ borderBottom: row.selected ? 'none' : undefined }}>
          <Link component={RouterLink} to={`/cases/${t.caseId}`} data-testid="call-log-patient">
            {t.lastName}, {t.firstName}
          </Link>
          {t.onHold && <Chip size="small" color="warning" label="On hold" sx={{ ml: 1 }} />}
        </TableCell>
        <TableCell sx={{ borderBottom: row.selected ? 'none' : undefined }}>
          {[t.gender, t.age !== null && t.age !== undefined ? `${t.age} y` : null].filter(Boolean).join(' / ')}
        </TableCell>
        <TableCell sx={{ borderBottom: row.selected ? 'none' : undefined }}>{t.sourceFacilityName}</TableCell>
        <TableCell sx={{ borderBottom: row.selected ? 'none' : undefined }} data-testid="call-log-last-call">
          {t.lastCall ? (
            <Tooltip title={t.lastCall.note ?? ''}>
              <Box>
                <Typography variant="body2">{enumLabel(t.lastCall.result)}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(t.lastCall.createdAt)}
                  {t.lastCall.createdByName ? ` · ${t.lastCall.createdByName}` : ''}
                  {t.lastCall.note ? ` · ${t.lastCall.note.length > 40 ? `${t.lastCall.note.slice(0, 40)}…` : t.lastCall.note}` : ''}
                </Typography>
              </Box>
            </Tooltip>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Not called yet
            </Typography>
          )}
        </TableCell>
        <TableCell sx={{ borderBottom: row.selected ? 'none' : undefined }}>{t.callbackAt ? formatDateTime(t.callbackAt) : ''}</TableCell>
      </TableRow>
      {row.selected && (
        <TableRow selected data-testid="call-log-entry" data-task-id={t.id}>
          <TableCell />
          <TableCell colSpan={5}>
            <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', py: 1 }}>
              <Box>
                <TextField
                  select
                  size="small"
                  label="Result"
                  value={row.result ?? ''}
                  onChange={(e) => onResult(e.target.value || null)}
                  error={!!problems.result}
                  helperText={problems.result}
                  sx={{ minWidth: 220 }}
                  SelectProps={{ SelectDisplayProps: { 'data-testid': 'call-log-result' } as any }}
                >
                  {CALL_RESULTS.map((r) => (
                    <MenuItem key={r} value={r} data-testid={`result-${r}`}>
                      {enumLabel(r)}
                    </MenuItem>
                  ))}
                </TextField>
                {alternate && (
                  <Box>
                    <Button size="small" onClick={() => onResult(alternate)} data-testid="call-log-alternate">
                      {enumLabel(alternate)} instead
                    </Button>
                  </Box>
                )}
              </Box>
              <TextField
                size="small"
                label="Spoke with"
                value={row.spokeWith}
                onChange={(e) => onChange({ spokeWith: e.target.value })}
                error={!!problems.spokeWith}
                helperText={problems.spokeWith}
                inputProps={{ 'data-testid': 'call-log-spoke-with', maxLength: 255 }}
              />
              <FollowUpSelect value={row.minutes} options={options} onChange={(minutes) => onChange({ minutes })} error={problems.callbackAt} testId="call-log-follow-up" />
              <Box sx={{ maxWidth: 220 }}>
                <Button size="small" variant="text" onClick={onNote} data-testid="call-log-note">
                  {row.note ? 'Edit note' : 'Add note'}
                </Button>
                {row.note && (
                  <Typography variant="caption" display="block" color="text.secondary" sx={{ wordBreak: 'break-word' }} data-testid="call-log-note-text">
                    {row.note}
                  </Typography>
                )}
                {problems.note && (
                  <Typography variant="caption" color="error">
                    {problems.note}
                  </Typography>
                )}
              </Box>
              <Box data-testid="call-log-accept-grid">
                <Typography variant="caption" color="text.secondary">
                  Accepts
                </Typography>
                <Table size="small" sx={{ '& td, & th': { border: 0, py: 0, px: 0.5 } }}>
                  <TableHead>
                    <TableRow>
                      <TableCell />
                      {ACCEPT_AGES.map((a) => (
                        <TableCell key={a} align="center" sx={{ fontSize: 12 }}>
                          {a[0].toUpperCase() + a.slice(1)}
                        </TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {ACCEPT_GENDERS.map((g) => (
                      <TableRow key={g}>
                        <TableCell sx={{ fontSize: 12 }}>{g === 'male' ? 'Male' : 'Female'}</TableCell>
                        {ACCEPT_AGES.map((a) => (
                          <TableCell key={a} align="center">
                            <Checkbox
                              size="small"
                              sx={{ p: 0.25 }}
                              disabled={!grid[g][a]}
                              checked={!!row.accept[g][a]}
                              onChange={(e) => onChange({ accept: { ...row.accept, [g]: { ...row.accept[g], [a]: e.target.checked } } })}
                              inputProps={{ 'data-testid': `accept-${g}-${a}`, 'aria-label': `${g} ${a}` } as any}
                            />
                          </TableCell>
                        ))}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {problems.accept && (
                  <Typography variant="caption" color="error" data-testid="call-log-accept-error">
                    {problems.accept}
                  </Typography>
                )}
              </Box>
            </Box>
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}
