import { Create, useNotify, useRedirect } from 'react-admin';
import { normalizeInput } from '@crisis/forms';
import { fieldErrorsOf } from '../billing-codes/codedFields';
import { PageTitle } from '../common/PageTitle';
import { PayerForm } from './PayerForm';
import { toPayerPayload } from './payerPayload';

export function PayerCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title=" "
      mutationMode="pessimistic"
      transform={(v: any) => normalizeInput(toPayerPayload(v))}
      mutationOptions={{
        onSuccess: (data: { id: number }) => {
          notify('Payer created', { type: 'success' });
          redirect('edit', 'payers', data.id);
        },
        onError: (error: unknown) => {
          // Field errors (INV, INV.NOT.UNIQ) are shown on the fields by the form itself.
          if (!fieldErrorsOf(error)) notify((error as Error).message, { type: 'error' });
        },
      }}
    >
      <PageTitle title="New payer" />
      <PayerForm isNew />
    </Create>
  );
}
