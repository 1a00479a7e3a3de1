import { Alert, Box, Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { ArrayInput, BooleanInput, SimpleFormIterator, useSimpleFormIterator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { MAX_INSURANCES } from '@crisis/forms/core';
import { InsuranceFields } from '../insurance/InsuranceFields';
import { useAppQuery } from '../../data/query';

const ORDER = ['Primary', 'Secondary', 'Tertiary'];

/**
 * The insurances of a new case (spec 01 §3, §5 Insurance): up to three rows (payer, insurance id,
 * group id, relation), or the uninsured toggle that replaces the list.
 */
export function InsuranceRows() {
  const uninsured = useWatch({ name: 'uninsured' });
  const insurances = useWatch({ name: 'insurances' }) as unknown[] | undefined;
  const patient = useWatch({ name: 'patient' });
  const payers = useAppQuery(['caseCreate', 'payers'], (dp) => dp.casePayers()).data ?? [];
  const full = (insurances?.length ?? 0) >= MAX_INSURANCES;
  return (
    <Box data-testid="insurance-section">
      <BooleanInput source="uninsured" label="Patient is uninsured" helperText={false} data-testid="uninsured-toggle" />
      {uninsured ? (
        <Alert severity="info" sx={{ mt: 1 }}>
          The patient is marked uninsured: no insurance will be saved.
        </Alert>
      ) : (
        <ArrayInput source="insurances" label="Insurances" helperText={false}>
          <SimpleFormIterator
            disableReordering
            addButton={<AddInsuranceButton />}
            disableAdd={full}
            disableClear
            getItemLabel={(i: number) => ORDER[i] ?? ''}
            sx={{ '& .RaSimpleFormIterator-line': { py: 1 }, '& .RaSimpleFormIterator-index': { minWidth: 90, pt: 2 } }}
            data-testid="insurance-rows"
          >
            <InsuranceFields payers={payers} patient={patient} hideVerified />
          </SimpleFormIterator>
        </ArrayInput>
      )}
      {!uninsured && full && (
        <Stack sx={{ mt: 1 }}>
          <Alert severity="info" variant="outlined">
            At most {MAX_INSURANCES} insurances per case.
          </Alert>
        </Stack>
      )}
    </Box>
  );
}

function AddInsuranceButton() {
  const { add } = useSimpleFormIterator();
  return (
    <Button size="small" startIcon={<AddIcon />} onClick={() => add()} data-testid="insurance-add">
      Add insurance
    </Button>
  );
}
