import { useEffect, useMemo, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import { Box, Button, Tooltip, Typography } from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import {
  ErrorCode,
  MEDICAL_INFORMATION_CLAIM_TYPE,
  canClaim,
  medicalInformationConfirmation,
  type MedicalInformationConfirmationReason,
} from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { announce } from '../../common/LiveAnnouncer';
import { isCodedError } from '../../data/codedError';
import { keys, useAppData, useAppQuery } from '../../data/query';
import { ConfirmDialog } from '../page/dialogs';
import { useCaseErrors } from '../page/useCaseErrors';
import type { CaseCardProps } from '../types';
import { CaseCard } from './CaseCard';
import { ChangeLogDialog } from './medical/ChangeLogDialog';
import { MedicalInformationEditDialog, formFrom, payloadFrom, type MedicalForm } from './medical/MedicalInformationEditDialog';
import { MedicalInformationView } from './medical/MedicalInformationView';
import { useMedicalClaim } from './medical/useMedicalClaim';

const CONFIRM_TEXT: Record<MedicalInformationConfirmationReason, string> = {
  recommendationChanged: 'The recommendation has changed. Save the new recommendation for this case?',
  legalStatusChanged:
    'The case is contacting service organizations and the new legal status is outside the statuses those facilities were contacted for. Save it anyway?',
};

/**
 * Medical information card of the ITP case page (spec 01 §3–§5): every field, Edit under a claim
 * (30 s renewal, Edit disabled with the holder's name while another user edits), the edit modal,
 * the confirmation dialog and the change log.
 */
export function MedicalInformationCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const notify = useNotify();
  const caseId = caseRecord.id;
  const closed = caseRecord.status === 'Closed';
  // Editing happens under a claim: offered only to whom the claim rules let claim it.
  const canEdit = !closed && canClaim(ability, MEDICAL_INFORMATION_CLAIM_TYPE);
  const dp = useAppData();
  // Loaded again with every command on the case (its version); the last answer stays shown meanwhile.
  const query = useAppQuery(keys.case(caseId, 'medical', caseRecord.version, caseRecord.status), (d) => d.medicalInformation(caseId), {
    placeholderData: keepPreviousData,
  });
  const info = query.data;
  const loadError = query.error;
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState<{ reason: MedicalInformationConfirmationReason; form: MedicalForm } | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const { handle, dialog, show } = useCaseErrors(onChanged);


  const claim = useMedicalClaim(caseId, {
    enabled: canEdit,
    myUserId: context.id,
    onLost: () => {
      setEditing(false);
      setConfirm(null);
      show({ title: 'Editing stopped', message: 'Your lock on the medical information lapsed, so the edit was closed. Open it again to continue.' });
    },
  });

  const initial = useMemo(() => (info ? formFrom(info) : {}), [info]);

  const openEdit = async () => {
    try {
      await claim.acquire();
      await query.refetch();
      setServerErrors({});
      setEditing(true);
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.ObjectAlreadyClaimed) {
        const name = String((e.payload as { subjectName?: string })?.subjectName ?? 'another user');
        show({ title: 'Medical information is being edited', message: `${name} is editing the medical information.` });
      } else handle(e);
    }
  };

  const close = async () => {
    setEditing(false);
    setConfirm(null);
    await claim.release();
  };

  const save = async (form: MedicalForm, confirmed: boolean) => {
    if (!info) return;
    if (!confirmed) {
      const reason = medicalInformationConfirmation(info, payloadFrom(form), {
        caseStatus: caseRecord.status,
        includeOutOfStateFacilities: caseRecord.includeOutOfStateFacilities,
      });
      if (reason) return setConfirm({ reason, form });
    }
    setBusy(true);
    try {
      await dp.saveMedicalInformation(caseId, { ...payloadFrom(form), ...(confirmed ? { confirmed: true } : {}) });
      await query.refetch();
      setConfirm(null);
      notify('Medical information saved', { type: 'success' });
      await close();
      onChanged();
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.MedicalInformationConfirmationRequired) {
        const reason = (e.payload as { reason?: MedicalInformationConfirmationReason })?.reason ?? 'recommendationChanged';
        setConfirm({ reason, form });
      } else if (isCodedError(e) && (e.code === ErrorCode.ClaimOverdueOrInactive || e.code === ErrorCode.ObjectAlreadyClaimed)) {
        setEditing(false);
        setConfirm(null);
        show({ title: 'Editing stopped', message: 'Your lock on the medical information lapsed; the changes were not saved.' });
      } else {
        setConfirm(null);
        const fields = handle(e);
        if (fields) setServerErrors(fields);
      }
    } finally {
      setBusy(false);
    }
  };

  const holderName = claim.holder?.subjectName;
  // Another user taking or giving up the edit lock is said through the live region.
  const heardHolder = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (holderName === heardHolder.current) return;
    if (holderName) announce(`Medical information is being edited by ${holderName}`);
    else if (heardHolder.current) announce('Medical information can be edited again');
    heardHolder.current = holderName;
  }, [holderName]);
  return (
    <CaseCard
      title="Medical information"
      testId="medical-information-card"
      dense
      error={loadError}
      loading={!info}
      action={
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button size="small" startIcon={<HistoryIcon />} onClick={() => setLogOpen(true)} data-testid="medical-information-log-open">
            Change log
          </Button>
          {canEdit && (
            <Tooltip title={holderName ? `${holderName} is editing the medical information` : ''} data-testid="medical-information-edit-tooltip">
              <span>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<EditIcon />}
                  disabled={!!holderName || editing || !info}
                  onClick={openEdit}
                  data-testid="medical-information-edit-open"
                  data-holder={holderName ?? ''}
                >
                  Edit
                </Button>
              </span>
            </Tooltip>
          )}
        </Box>
      }
      dialogs={
        <>
          {editing && info && (
            <MedicalInformationEditDialog
              open={editing}
              initial={initial}
              caseStatus={caseRecord.status}
              busy={busy}
              serverErrors={serverErrors}
              onCancel={close}
              onSubmit={(form) => void save(form, false)}
            />
          )}
          <ConfirmDialog
            open={!!confirm}
            title="Please confirm"
            message={confirm ? CONFIRM_TEXT[confirm.reason] : ''}
            busy={busy}
            testId="medical-information-confirm"
            onClose={() => setConfirm(null)}
            onConfirm={() => confirm && void save(confirm.form, true)}
          />
          <ChangeLogDialog caseId={caseId} open={logOpen} onClose={() => setLogOpen(false)} />
          {dialog}
        </>
      }
    >
      {holderName && (
        <Typography variant="caption" color="warning.main" data-testid="medical-information-holder">
          Being edited by {holderName}
        </Typography>
      )}
      {info && <MedicalInformationView info={info} />}
    </CaseCard>
  );
}
