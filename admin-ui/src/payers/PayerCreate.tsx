import { Create } from 'react-admin';
import { normalizeInput } from '@crisis/forms/core';
import { useSavedThen } from '../common/RecordForm';
import { PageTitle } from '../common/PageTitle';
import { PayerForm } from './PayerForm';
import { toPayerPayload } from './payerPayload';

export function PayerCreate() {
  const saved = useSavedThen('Payer created', 'edit', 'payers', true);
  return (
    <Create
      title=" "
      mutationMode="pessimistic"
      transform={(v: any) => normalizeInput(toPayerPayload(v))}
      mutationOptions={saved}
    >
      <PageTitle title="New payer" />
      <PayerForm isNew />
    </Create>
  );
}
