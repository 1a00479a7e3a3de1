import { Box, Typography } from '@mui/material';
import { SelectInput, SimpleForm, TextInput } from 'react-admin';
import { US_STATES } from '@crisis/forms/core';
import { CheckboxInput } from '../common/CheckboxInput';
import { inputTestId } from '../common/testId';
import { NEW_PAYER, validatePayer } from './payerPayload';
import { SaveCancelToolbar } from '../common/RecordForm';
import { EhrPlanField } from './EhrPlanSearch';

const STATE_CHOICES = US_STATES.map((s) => ({ id: s.code, name: `${s.code} – ${s.name}` }));

/** Payer fields (spec 03 §3 Payer): name required and unique; code, plan name, EHR plan package id, address optional. */
export function PayerForm({ isNew }: { isNew: boolean }) {
  return (
    <SimpleForm
      validate={validatePayer as any}
      mode="onTouched"
      reValidateMode="onChange"
      defaultValues={isNew ? NEW_PAYER : undefined}
      toolbar={<SaveCancelToolbar testId="payer" back="/payers" />}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '2fr 1fr' }, gap: 2, width: '100%', maxWidth: 900 }}>
        <TextInput source="name" label="Name" isRequired {...inputTestId('payer-name')} />
        <TextInput source="code" label="Code" {...inputTestId('payer-code')} />
        <TextInput source="planName" label="Plan name" {...inputTestId('payer-planName')} />
      </Box>
      <EhrPlanField />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Address
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '2fr 1fr 1fr 1fr' }, gap: 2, width: '100%', maxWidth: 900 }}>
        <TextInput source="address.streetLine" label="Street" {...inputTestId('payer-street')} />
        <TextInput source="address.city" label="City" {...inputTestId('payer-city')} />
        <SelectInput source="address.state" label="State" choices={STATE_CHOICES} emptyText="—" />
        <TextInput source="address.zipCode" label="Zip" {...inputTestId('payer-zip')} />
      </Box>
      <Box sx={{ width: '100%', maxWidth: 300 }}>
        <TextInput source="address.phone" label="Phone" {...inputTestId('payer-phone')} />
      </Box>
      <CheckboxInput source="isActive" label="Active" testId="payer-isActive" />
    </SimpleForm>
  );
}
