import { useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { BooleanInput, SelectInput, TextInput, useNotify } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ErrorCode, NOTIFICATION_SENDING_METHODS, formatPhone, type CaseSourceDetailsInput } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { FormDialog } from '../../common/FormDialog';
import { LockedField } from '../../common/LockedField';
import { MessageDialog } from '../../common/MessageDialog';
import { PhoneInput } from '../../common/PhoneInput';
import { schemaValidator } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { keys, useAppData, useAppQuery } from '../../data/query';
import type { CaseCardProps, CaseDetails } from '../types';
import { CaseCard } from './CaseCard';
import { addressLine, InfoRow, TitleIconButton } from './InfoRow';
import { onSourceSide } from '../sourceSide';

const METHOD_LABELS: Record<string, string> = { SMS: 'SMS', PhoneCall: 'Phone call' };
const METHOD_CHOICES = NOTIFICATION_SENDING_METHODS.map((m) => ({ id: m, name: METHOD_LABELS[m] ?? m }));

const toPayload = (v: any, c: CaseDetails, forceUpdate = false): CaseSourceDetailsInput => ({
  sourceFacilityId: c.sourceFacility.id,
  sourceDivisionId: v.sourceDivisionId ?? null,
  attendingProvider: v.attendingProvider ?? null,
  rnCaringForPatient: v.rnCaringForPatient ?? null,
  contactPhoneNumber: v.contactPhoneNumber ?? null,
  notificationSendingMethod: v.notificationSendingMethod ?? null,
  isInvoluntary: !!v.isInvoluntary,
  forceUpdate: forceUpdate || null,
});

interface Dialog2 {
  title: string;
  message: string;
  /** Offered as "Save anyway" (credentialed-providers warning). */
  onConfirm?: () => void;
  onCancel?: () => void;
}

function DivisionChangeWarning({ current }: { current: number }) {
  const chosen = useWatch({ name: 'sourceDivisionId' });
  if (!chosen || chosen === current) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="division-change-warning">
      Changing the division moves the case to another source division: its staff will be notified. A division can only be changed while no
      request is active.
    </Alert>
  );
}

function SourceEditDialog({ caseRecord, onClose, onSaved }: { caseRecord: CaseDetails; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  const divisions = useAppQuery(keys.case(caseRecord.id, 'sourceDivisions'), (dp) => dp.caseSourceDivisions(caseRecord.id)).data ?? [];
  const [dialog, setDialog] = useState<Dialog2 | null>(null);
  const validate = schemaValidator('caseSourceDetails', (v: any) => toPayload(v, caseRecord));

  const save = async (values: any, force: boolean): Promise<unknown> => {
    try {
      await dp.caseUpdateSource(caseRecord.id, toPayload(values, caseRecord, force));
      notify('Case updated', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.UpdateCaseWithCredentialedProviders) {
        const name = decodeURIComponent(String((e.payload as any)?.providerName ?? ''));
        return void setDialog({
          title: 'Provider not credentialed',
          message: `${name || 'The provider of this case'} is not credentialed at the chosen division. Save the new division anyway?`,
          onConfirm: () => void save(values, true),
        });
      }
      if (isCodedError(e) && e.code === ErrorCode.UpdateSourceWithActiveRequests)
        return void setDialog({
          title: 'The division cannot be changed',
          message: 'The case has an active request: cancel or resolve it before changing the source division.',
        });
      if (isCodedError(e) && e.code === ErrorCode.CaseIsClosed) return void setDialog({ title: 'The case is closed', message: 'A closed case cannot be edited.' });
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      notify(`Updating the source failed: ${(e as Error).message}`, { type: 'error' });
    }
  };

  const submit = async (values: any) => {
    if (values.sourceDivisionId !== caseRecord.sourceDivision.id) {
      // Changing the division asks for confirmation first (spec 01 §5).
      return new Promise<unknown>((resolve) =>
        setDialog({
          title: 'Change the source division?',
          message: `The case will move from ${caseRecord.sourceDivision.name} to ${divisions.find((d) => d.id === values.sourceDivisionId)?.name ?? 'the chosen division'}.`,
          onConfirm: () => resolve(save(values, false)),
          onCancel: () => resolve(undefined),
        }),
      );
    }
    return save(values, false);
  };

  const record = {
    sourceDivisionId: caseRecord.sourceDivision.id,
    attendingProvider: caseRecord.attendingProvider,
    rnCaringForPatient: caseRecord.rnCaringForPatient,
    contactPhoneNumber: caseRecord.contactPhoneNumber,
    notificationSendingMethod: caseRecord.notificationSendingMethod,
    isInvoluntary: caseRecord.isInvoluntary,
  };
  const choices = divisions.length ? divisions.map((d) => ({ id: d.id, name: d.isActive ? d.name : `${d.name} (inactive)` })) : [{ id: caseRecord.sourceDivision.id, name: caseRecord.sourceDivision.name }];
  const closeWarning = () => {
    dialog?.onCancel?.();
    setDialog(null);
  };
  const warning = (
    <MessageDialog
      content={dialog}
      onClose={closeWarning}
      testId="source-warning-dialog"
      actions={
        <>
          <Button onClick={closeWarning}>{dialog?.onConfirm ? 'Cancel' : 'OK'}</Button>
          {dialog?.onConfirm && (
            <Button
              variant="contained"
              data-testid="source-warning-confirm"
              onClick={() => {
                const go = dialog.onConfirm!;
                setDialog(null);
                go();
              }}
            >
              Continue
            </Button>
          )}
        </>
      }
    />
  );
  return (
    <FormDialog
      title="Source facility details"
      testId="source"
      dialogTestId="source-edit-dialog"
      form={{ record, onSubmit: submit, validate, sanitizeEmptyValues: false }}
      onClose={onClose}
      dialogs={warning}
    >
      <LockedField label="Source facility" value={caseRecord.sourceFacility.name} testId="source-facility-locked" />
      <SelectInput source="sourceDivisionId" label="Division *" choices={choices} fullWidth data-testid="source-division" />
      <DivisionChangeWarning current={caseRecord.sourceDivision.id} />
      <TextInput source="attendingProvider" label="Attending provider" fullWidth data-testid="source-attending" />
      <TextInput source="rnCaringForPatient" label="RN caring for patient" fullWidth data-testid="source-rn" />
      <PhoneInput source="contactPhoneNumber" label="Contact phone *" fullWidth data-testid="source-phone" />
      <SelectInput source="notificationSendingMethod" label="Notification method *" choices={METHOD_CHOICES} fullWidth data-testid="source-method" />
      <BooleanInput source="isInvoluntary" label="Involuntary" helperText={false} />
    </FormDialog>
  );
}

const Row = ({ label, value, testId }: { label: string; value: string | null | undefined; testId?: string }) => (
  <InfoRow label={label} testId={testId} labelWidth={150}>
    {value}
  </InfoRow>
);

const contact = (c: Record<string, string | null> | null | undefined, key: 'phone1' | 'fax1') => {
  const v = c?.[key];
  if (!v) return null;
  const ext = c?.[`${key}Extension`];
  return `${formatPhone(v)}${ext ? ` ext. ${ext}` : ''}`;
};

/**
 * Source facility card (spec 01 §2, §3, §5 "Source facility details", §8): facility, division,
 * contacts, attending provider, RN, contact phone and notification method; the edit modal keeps
 * the facility fixed, warns on a division change and shows the coded errors as dialogs.
 */
export function SourceFacilityCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const [editing, setEditing] = useState(false);
  const f = caseRecord.sourceFacility;
  const d = caseRecord.sourceDivision;
  const canEdit = ability.can('update', 'Case') && caseRecord.status !== 'Closed' && onSourceSide(context, caseRecord);
  return (
    <CaseCard
      title="Source facility"
      testId="source-facility-card"
      variant="outlined"
      dense
      action={canEdit && <TitleIconButton title="Edit source details" testId="source-edit-button" onClick={() => setEditing(true)} icon={<EditIcon />} />}
      dialogs={
        editing && (
          <SourceEditDialog
            caseRecord={caseRecord}
            onClose={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              onChanged();
            }}
          />
        )
      }
    >
      <Typography variant="subtitle1" data-testid="source-facility-name">
        {f.name}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {addressLine({ ...f.address, apartmentNumber: null })}
      </Typography>
      <Box sx={{ mt: 1 }}>
        <Row label="Division" value={d.name} testId="source-division-name" />
        <Row label="Phone" value={contact(d.contacts, 'phone1') ?? contact(f.contacts, 'phone1')} />
        <Row label="Fax" value={contact(d.contacts, 'fax1') ?? contact(f.contacts, 'fax1')} />
        <Row label="Attending provider" value={caseRecord.attendingProvider} testId="source-attending-value" />
        <Row label="RN caring for patient" value={caseRecord.rnCaringForPatient} testId="source-rn-value" />
        <Row label="Contact phone" value={caseRecord.contactPhoneNumber ? formatPhone(caseRecord.contactPhoneNumber) : null} testId="source-phone-value" />
        <Row label="Notification method" value={METHOD_LABELS[caseRecord.notificationSendingMethod] ?? caseRecord.notificationSendingMethod} testId="source-method-value" />
        {caseRecord.isInvoluntary && <Row label="Involuntary" value="Yes" />}
      </Box>
    </CaseCard>
  );
}
