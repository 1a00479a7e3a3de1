import { Button, Box } from '@mui/material';
import { Form, useDataProvider, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import type { AppDataProvider } from '../data/dataProvider';
import { isCodedError } from '../data/codedError';
import { fieldErrorsToObject } from '../data/codedError';
import { validatePayload } from '../common/schemaValidation';
import { FacilityGeneralFields } from '../facilities/FacilityGeneralFields';
import type { FacilityRecord } from '../facilities/facilityTypes';

function SaveBar() {
  const { isDirty, isSubmitting } = useFormState();
  return (
    <Box sx={{ mt: 2 }}>
      <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting} data-testid="facility-save">
        Save
      </Button>
    </Box>
  );
}

/** A facility admin's general tab: every field shown, only MFA editable (PUT settings/mfa); no cancel. */
export function FacilityMfaForm({ record, onSaved }: { record: FacilityRecord; onSaved: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const submit = async (values: Record<string, unknown>) => {
    const payload = { isMfaEnabled: !!values.isMfaEnabled };
    const errors = validatePayload('facilityMfa', payload);
    if (errors.length) return fieldErrorsToObject(errors);
    try {
      await dataProvider.setFacilityMfa(record.id, payload.isMfaEnabled);
      notify('Facility updated', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <Form record={record} onSubmit={submit}>
      <FacilityGeneralFields mode="mfaOnly" />
      <SaveBar />
    </Form>
  );
}
