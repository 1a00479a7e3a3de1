import { Box } from '@mui/material';
import { CheckboxGroupInput, TextInput } from 'react-admin';
import { REQUEST_TYPES, SOURCE_TYPES, enumLabel } from '@crisis/forms/core';
import { CheckboxInput } from '../common/CheckboxInput';
import { schemaValidator } from '../common/schemaValidation';
import { inputTestId } from '../common/testId';
import { RecordDialog } from './RecordDialog';

export const sourceTypeLabel = (t: string) => (t === 'ErCrisis' ? 'ER Crisis' : enumLabel(t));

interface Values {
  id?: number;
  code: string | null;
  description: string | null;
  sourceDivisionTypes: string[];
  requestTypes: string[];
  isActive: boolean;
}

const toPayload = (v: Values) => ({
  code: v.code ?? null,
  description: v.description ?? null,
  sourceDivisionTypes: v.sourceDivisionTypes ?? [],
  requestTypes: v.requestTypes ?? [],
  isActive: !!v.isActive,
});
const validate = schemaValidator('billingCode', toPayload);

/** Create/edit modal of a billing code: code (unique) and description required; both type lists non-empty. */
export function BillingCodeDialog({ id, onClose, onSaved }: { id: number | null; onClose: () => void; onSaved: () => void }) {
  return (
    <RecordDialog<Values>
      resource="billing-codes"
      id={id}
      testId="billing-code"
      title={{ create: 'Add billing code', edit: 'Edit billing code' }}
      blank={() => ({ code: '', description: '', sourceDivisionTypes: [], requestTypes: [], isActive: true })}
      toPayload={toPayload}
      validate={validate}
      messages={{ created: 'Billing code created', updated: 'Billing code updated' }}
      onClose={onClose}
      onSaved={onSaved}
      maxWidth="md"
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 2fr', gap: 2 }}>
        <TextInput source="code" label="Code" isRequired {...inputTestId('billing-code-code')} />
        <TextInput source="description" label="Description" isRequired {...inputTestId('billing-code-description')} />
      </Box>
      <CheckboxGroupInput
        source="sourceDivisionTypes"
        label="Source types *"
        choices={SOURCE_TYPES.map((t) => ({ id: t, name: sourceTypeLabel(t) }))}
        data-testid="billing-code-sourceDivisionTypes"
      />
      <CheckboxGroupInput
        source="requestTypes"
        label="Request types *"
        choices={REQUEST_TYPES.map((t) => ({ id: t, name: enumLabel(t) }))}
        data-testid="billing-code-requestTypes"
      />
      <CheckboxInput source="isActive" label="Active" testId="billing-code-isActive" />
    </RecordDialog>
  );
}
