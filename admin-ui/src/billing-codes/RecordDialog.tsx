import type { ReactNode } from 'react';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, useDataProvider, useGetOne, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { normalizeInput } from '@crisis/forms';
import { fieldErrorsOf } from './codedFields';

function DialogButtons({ onClose, testId }: { onClose: () => void; testId: string }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose} data-testid={`${testId}-cancel`}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid={`${testId}-save`}>
        Save
      </Button>
    </DialogActions>
  );
}

/**
 * The add/edit modal of a reference-data list (billing codes, group organizations): loads the
 * record, validates with the shared schema, saves through the data provider, shows the success
 * toast, and puts coded field errors (INV, INV.NOT.UNIQ) on their fields.
 */
export function RecordDialog<T extends { id?: number }>({
  resource,
  id,
  title,
  testId,
  blank,
  toPayload,
  validate,
  messages,
  onClose,
  onSaved,
  children,
  maxWidth = 'sm',
}: {
  resource: string;
  /** null: a new record. */
  id: number | null;
  title: { create: string; edit: string };
  testId: string;
  blank: () => Partial<T>;
  toPayload: (values: T) => unknown;
  validate: (values: T) => Record<string, unknown>;
  messages: { created: string; updated: string };
  onClose: () => void;
  onSaved: () => void;
  children: ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg';
}) {
  const isNew = id === null;
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const { data, isPending } = useGetOne<T & { id: number }>(resource, { id: id ?? 0 }, { enabled: !isNew });
  const record = isNew ? blank() : data;

  const submit = async (values: Record<string, unknown>) => {
    const payload = normalizeInput(toPayload(values as unknown as T)) as any;
    try {
      if (isNew) await dataProvider.create(resource, { data: payload });
      else await dataProvider.update(resource, { id, data: payload, previousData: data as any });
      notify(isNew ? messages.created : messages.updated, { type: 'success' });
      onSaved();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) return fields;
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth={maxWidth} fullWidth data-testid={`${testId}-dialog`}>
      <DialogTitle>{isNew ? title.create : title.edit}</DialogTitle>
      {!record || (!isNew && isPending) ? (
        <DialogContent>
          <CircularProgress />
        </DialogContent>
      ) : (
        <Form record={record as any} onSubmit={submit} validate={validate as any} mode="onTouched" reValidateMode="onChange">
          <DialogContent dividers>{children}</DialogContent>
          <DialogButtons onClose={onClose} testId={testId} />
        </Form>
      )}
    </Dialog>
  );
}
