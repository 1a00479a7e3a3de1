import type { ReactNode } from 'react';
import { useDataProvider, useGetOne, useNotify } from 'react-admin';
import { normalizeInput } from '@crisis/forms/core';
import { FormDialog, ON_TOUCHED } from '../common/FormDialog';
import { fieldErrorsOf } from './codedFields';

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
    <FormDialog
      title={isNew ? title.create : title.edit}
      testId={testId}
      maxWidth={maxWidth}
      loading={!record || (!isNew && isPending)}
      form={{ record: record as any, onSubmit: submit, validate: validate as any, ...ON_TOUCHED }}
      onClose={onClose}
    >
      {children}
    </FormDialog>
  );
}
