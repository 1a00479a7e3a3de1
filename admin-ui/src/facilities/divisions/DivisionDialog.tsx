import { useState } from 'react';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, useDataProvider, useGetOne, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { normalizeInput } from '@crisis/forms/core';
import { blockedActionDialog } from '../../common/blockedAction';
import { InfoDialog, type InfoDialogContent } from '../../common/InfoDialog';
import { isCodedError } from '../../data/codedError';
import { divisionForForm, newDivision, toDivisionPayload, validateDivision, type DivisionRecord } from './divisionPayload';
import { DivisionFields } from './DivisionFields';

function DialogButtons({ readOnly, onClose }: { readOnly: boolean; onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose} data-testid="division-cancel">
        {readOnly ? 'Close' : 'Cancel'}
      </Button>
      {!readOnly && (
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="division-save">
          Save
        </Button>
      )}
    </DialogActions>
  );
}

/** Add/edit modal of a division (type and subtype fixed once created). */
export function DivisionDialog({
  facilityId,
  divisionId,
  readOnly,
  onClose,
  onSaved,
}: {
  facilityId: number;
  /** null: a new division. */
  divisionId: number | null;
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const isNew = divisionId === null;
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const { data, isPending } = useGetOne<DivisionRecord & { id: number }>(
    'divisions',
    { id: divisionId ?? 0, meta: { facilityId } },
    { enabled: !isNew },
  );
  const record = isNew ? newDivision() : data ? divisionForForm(data) : undefined;

  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
  const submit = async (values: Record<string, unknown>) => {
    const payload = normalizeInput(toDivisionPayload(values as unknown as DivisionRecord));
    try {
      if (isNew) await dataProvider.create('divisions', { data: payload, meta: { facilityId } });
      else
        await dataProvider.update('divisions', {
          id: divisionId,
          data: payload,
          previousData: data as any,
          meta: { facilityId },
        });
      notify(isNew ? 'Division added' : 'Division updated', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      const dialog = blockedActionDialog(e);
      if (dialog) return void setBlocked(dialog);
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="division-dialog">
      <DialogTitle>{isNew ? 'Add division' : readOnly ? 'Division' : 'Edit division'}</DialogTitle>
      {!record || (!isNew && isPending) ? (
        <DialogContent>
          <CircularProgress />
        </DialogContent>
      ) : (
        <Form record={record as any} onSubmit={submit} validate={validateDivision as any} mode="onTouched" reValidateMode="onChange">
          <DialogContent dividers>
            <DivisionFields isNew={isNew} readOnly={readOnly} />
          </DialogContent>
          <DialogButtons readOnly={readOnly} onClose={onClose} />
        </Form>
      )}
      <InfoDialog content={blocked} onClose={() => setBlocked(null)} />
    </Dialog>
  );
}
