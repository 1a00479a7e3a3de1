import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Chip, Link, MenuItem, TextField } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import UndoIcon from '@mui/icons-material/Undo';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import EditNoteIcon from '@mui/icons-material/EditNote';
import RemoveDoneIcon from '@mui/icons-material/RemoveDone';
import { ErrorCode, CaseStatus, caseReference, caseStatusLabel, closeBlockedByRequest, mayCloseWithoutOutcome } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { isCodedError } from '../../data/codedError';
import type { CaseDetails } from '../types';
import type { AppDataProvider } from '../../data/dataProvider';
import { useAppData, useCaseCommand } from '../../data/query';
import { ConfirmDialog } from './dialogs';
import { ContactingDialog, NoteDialog, OutcomeDialog, type Submit } from './statusDialogs';
import { RemoveFromAcceptedDialog } from './RemoveFromAcceptedDialog';
import { useCaseErrors } from './useCaseErrors';

type Confirm = { kind: 'resume' | 'undo' | 'closeWithoutOutcome' | 'reopen'; status?: string } | null;

/**
 * The case status control (spec 01 §4): ITP admins and users get the selector offering only the
 * allowed targets (auto-submitting), resume / undo, and on closed cases reopen and change outcome;
 * everyone else a read-only status.
 */
export function StatusControl({ caseRecord, onChanged }: { caseRecord: CaseDetails; onChanged: () => void }) {
  const { ability } = useSession();
  const notify = useNotify();
  const errors = useCaseErrors(onChanged);
  const [noteTarget, setNoteTarget] = useState<string | null>(null);
  const [contacting, setContacting] = useState(false);
  const [outcomeMode, setOutcomeMode] = useState<'close' | 'changeOutcome' | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState(false);
  const closed = caseRecord.status === CaseStatus.Closed;
  const canControl = ability.can('update', 'CaseStatus');

  if (!canControl)
    return <Chip label={caseRecord.statusLabel} color={closed ? 'default' : 'primary'} variant="outlined" data-testid="case-status-readonly" />;

  const expectedStatus = caseRecord.status;
  const command = useCaseCommand(caseRecord.id);
  const dp = useAppData();
  const run = async (call: (dp: AppDataProvider) => Promise<unknown>, success: string): Promise<Record<string, string> | null> => {
    try {
      await command.run(call);
      notify(success, { type: 'success' });
      setNoteTarget(null);
      setContacting(false);
      setOutcomeMode(null);
      setConfirm(null);
      return null;
    } catch (e) {
      const fields = errors.handle(e);
      if (!fields) {
        setNoteTarget(null);
        setContacting(false);
        setOutcomeMode(null);
        setConfirm(null);
      }
      return fields;
    }
  };
  const changeStatus: Submit = (body) => run((dp) => dp.caseChangeStatus(caseRecord.id, { ...body, expectedStatus }), 'Status changed');
  const close: Submit = (body) => run((dp) => dp.caseClose(caseRecord.id, { ...body, expectedStatus }), 'Case closed');
  const changeOutcome: Submit = (body) => run((dp) => dp.caseChangeOutcome(caseRecord.id, body), 'Outcome changed');

  const onSelect = (target: string) => {
    if (target === caseRecord.status) return; // selecting the current status does nothing
    if (target === CaseStatus.Closed) {
      const latest = caseRecord.requests[0] ?? null;
      if (closeBlockedByRequest(latest?.status))
        return errors.show({ title: 'The case cannot be closed', message: `The latest request is still active (${latest?.status}). Cancel or complete it before closing the case.` });
      if (mayCloseWithoutOutcome({ documentInEhr: caseRecord.sourceDivision.documentInEHR, outcomeRequired: caseRecord.sourceDivision.outcomeRequired }))
        return setConfirm({ kind: 'closeWithoutOutcome' });
      return setOutcomeMode('close');
    }
    if (target === CaseStatus.Contacting) return setContacting(true);
    setNoteTarget(target);
  };

  const startReopen = async () => {
    setBusy(true);
    try {
      const r = await dp.caseReopenStatus(caseRecord.id);
      if (r.activeCaseId) showActiveCase(r.activeCaseId);
      else setConfirm({ kind: 'reopen', status: r.statusToReopen });
    } catch (e) {
      errors.handle(e);
    } finally {
      setBusy(false);
    }
  };
  const showActiveCase = (activeCaseId: number) =>
    errors.show({
      title: 'The patient has an active case',
      message: (
        <span data-testid="reopen-active-case">
          The case cannot be reopened while the patient has another active case:{' '}
          <Link component={RouterLink} to={`/cases/${activeCaseId}`}>
            {caseReference(activeCaseId)}
          </Link>
        </span>
      ),
    });

  const onConfirm = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.kind === 'resume') await run((dp) => dp.caseResume(caseRecord.id), 'Case resumed');
      else if (confirm.kind === 'undo') await run((dp) => dp.caseUndo(caseRecord.id), 'Status change undone');
      else if (confirm.kind === 'closeWithoutOutcome')
        await run((dp) => dp.caseClose(caseRecord.id, { outcomeRequired: false, expectedStatus }), 'Case closed');
      else if (confirm.kind === 'reopen') {
        try {
          await command.run((dp) => dp.caseReopen(caseRecord.id));
          notify('Case reopened', { type: 'success' });
          setConfirm(null);
        } catch (e) {
          setConfirm(null);
          if (isCodedError(e) && e.code === ErrorCode.PatientHasActiveCase) showActiveCase(Number((e.payload as any)?.caseId));
          else errors.handle(e);
        }
      }
    } finally {
      setBusy(false);
    }
  };

  const options = [caseRecord.status, ...caseRecord.allowedStatuses.filter((s) => s !== caseRecord.status)];
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="status-control">
      <TextField
        select
        size="small"
        label="Status"
        value={caseRecord.status}
        disabled={closed || caseRecord.allowedStatuses.length === 0}
        onChange={(e) => onSelect(e.target.value)}
        sx={{ minWidth: 320 }}
        SelectProps={{ SelectDisplayProps: { 'data-testid': 'status-select' } as any }}
      >
        {options.map((s) => (
          <MenuItem key={s} value={s} data-testid={`status-option-${s}`}>
            {s === caseRecord.status ? caseRecord.statusLabel : caseStatusLabel(s, 'itp')}
          </MenuItem>
        ))}
      </TextField>
      {!closed && caseRecord.statusToResume && (
        <Button size="small" variant="outlined" startIcon={<PlayArrowIcon />} onClick={() => setConfirm({ kind: 'resume', status: caseRecord.statusToResume! })} data-testid="case-resume">
          Resume
        </Button>
      )}
      {!closed && caseRecord.canUndo && (
        <Button size="small" startIcon={<UndoIcon />} onClick={() => setConfirm({ kind: 'undo' })} data-testid="case-undo">
          Undo last change
        </Button>
      )}
      {!closed && caseRecord.patientAcceptedCreatedAt && (
        <Button size="small" startIcon={<RemoveDoneIcon />} onClick={() => setRemoving(true)} data-testid="case-remove-accepted">
          Remove from accepted
        </Button>
      )}
      {closed && (
        <>
          <Button size="small" variant="outlined" startIcon={<ReplayIcon />} onClick={startReopen} disabled={busy} data-testid="case-reopen">
            Reopen
          </Button>
          <Button size="small" startIcon={<EditNoteIcon />} onClick={() => openChangeOutcome()} data-testid="case-change-outcome">
            Change outcome
          </Button>
        </>
      )}

      <RemoveFromAcceptedDialog
        open={removing}
        caseId={caseRecord.id}
        busy={busy}
        onClose={() => setRemoving(false)}
        onSubmit={async (divisionId) => {
          setBusy(true);
          try {
            await run((dp) => dp.caseRemoveFromAccepted(caseRecord.id, divisionId), 'Removed from accepted');
          } finally {
            setBusy(false);
            setRemoving(false);
          }
        }}
      />
      <NoteDialog target={noteTarget} onClose={() => setNoteTarget(null)} onSubmit={changeStatus} />
      <ContactingDialog open={contacting} caseRecord={caseRecord} target={CaseStatus.Contacting} onClose={() => setContacting(false)} onSubmit={changeStatus} />
      <OutcomeDialog open={!!outcomeMode} mode={outcomeMode ?? 'close'} caseRecord={caseRecord} onClose={() => setOutcomeMode(null)} onSubmit={outcomeMode === 'changeOutcome' ? changeOutcome : close} />
      <ConfirmDialog
        open={!!confirm}
        testId="status-confirm"
        busy={busy}
        title={
          confirm?.kind === 'resume' ? 'Resume the case' : confirm?.kind === 'undo' ? 'Undo the last status change' : confirm?.kind === 'reopen' ? 'Reopen the case' : 'Close the case'
        }
        message={
          confirm?.kind === 'resume' || confirm?.kind === 'reopen' ? (
            <>
              The case status will be <b data-testid="status-confirm-new-status">{caseStatusLabel(confirm.status ?? '', 'itp')}</b>.
            </>
          ) : confirm?.kind === 'undo' ? (
            'The last status change will be undone.'
          ) : (
            'The source division documents in the EHR and needs no outcome: the case will be closed without an outcome.'
          )
        }
        confirmLabel={confirm?.kind === 'resume' ? 'Resume' : confirm?.kind === 'undo' ? 'Undo' : confirm?.kind === 'reopen' ? 'Reopen' : 'Close case'}
        onConfirm={onConfirm}
        onClose={() => setConfirm(null)}
      />
      {errors.dialog}
    </Box>
  );

  function openChangeOutcome() {
    if (mayCloseWithoutOutcome({ documentInEhr: caseRecord.sourceDivision.documentInEHR, outcomeRequired: caseRecord.sourceDivision.outcomeRequired }))
      return errors.show({ title: 'Change outcome', message: 'The source division documents the case in the EHR and needs no outcome.' });
    setOutcomeMode('changeOutcome');
  }
}
