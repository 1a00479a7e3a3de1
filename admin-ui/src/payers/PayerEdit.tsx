import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { Edit, useNotify, useRefresh, useUpdate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { DEFAULT_MESSAGES, normalizeInput } from '@crisis/forms/core';
import { setLastVisited } from '../common/listPersistence';
import { ActiveRecordTitle } from '../common/ReferenceList';
import { codeOf, fieldErrorsOf } from '../billing-codes/codedFields';
import { PayerForm } from './PayerForm';
import { PAYER_IN_USE_CODES, toPayerPayload } from './payerPayload';

/**
 * /payers/{id}. Editing or deactivating a payer used by patients is refused with one of the
 * INV.*.PAYER.USED.IN.PATIENTS codes; the user confirms and the same values are resubmitted with
 * forceUpdate (spec 03 §4 Payer).
 */
export function PayerEdit() {
  const { id } = useParams();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const lastPayload = useRef<Record<string, unknown> | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  useEffect(() => {
    if (id) setLastVisited('payers', id);
  }, [id]);

  const force = () => {
    if (!lastPayload.current || !id) return;
    update(
      'payers',
      { id, data: { ...lastPayload.current, forceUpdate: true }, previousData: {} },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setConfirm(null);
          notify('Payer updated', { type: 'success' });
          refresh();
        },
        onError: (e) => {
          setConfirm(null);
          notify((e as Error).message, { type: 'error' });
        },
      },
    );
  };

  return (
    <Edit
      title=" "
      component="div"
      actions={false}
      mutationMode="pessimistic"
      redirect={false}
      transform={(v: any) => {
        const payload = normalizeInput(toPayerPayload(v)) as Record<string, unknown>;
        lastPayload.current = payload;
        return payload;
      }}
      mutationOptions={{
        onSuccess: () => notify('Payer updated', { type: 'success' }),
        onError: (error: unknown) => {
          const code = codeOf(error);
          if (code && PAYER_IN_USE_CODES.includes(code)) return setConfirm(code);
          if (fieldErrorsOf(error)) return; // shown on the fields
          notify((error as Error).message, { type: 'error' });
        },
      }}
    >
      <ActiveRecordTitle />
      <PayerForm isNew={false} />
      <Dialog open={!!confirm} onClose={() => setConfirm(null)} data-testid="payer-force-dialog">
        <DialogTitle>Payer in use</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirm ? DEFAULT_MESSAGES[confirm] : ''}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)}>Cancel</Button>
          <Button variant="contained" onClick={force} disabled={isPending} data-testid="payer-force-confirm">
            Save anyway
          </Button>
        </DialogActions>
      </Dialog>
    </Edit>
  );
}
