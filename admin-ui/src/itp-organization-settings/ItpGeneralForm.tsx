import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { BooleanInput, Form, TextInput, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { TEXT_MEDIUM, type ItpOrganizationRecord } from '@crisis/forms/core';
import { useReloadSession } from '../auth/session';
import { validatePayload } from '../common/schemaValidation';
import { fieldErrorsToObject, isCodedError } from '../data/codedError';
import { api } from '../data/httpClient';

const toPayload = (v: Record<string, any>) => ({
  organizationName: v.organizationName ?? null,
  erLine: v.erLine ?? null,
  mfaEnabled: !!v.mfaEnabled,
});

function SaveBar() {
  const { isDirty, isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting} data-testid="itp-general-save">
      Save
    </Button>
  );
}

/** General tab: organization name, the emergency-room line shown to every facility user, MFA. */
export function ItpGeneralForm() {
  const notify = useNotify();
  const reloadSession = useReloadSession();
  const [record, setRecord] = useState<ItpOrganizationRecord | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    try {
      setRecord(await api.get<ItpOrganizationRecord>('/api/itp-organization'));
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  if (failed) return <Alert severity="error">The organization settings could not be loaded.</Alert>;
  if (!record) return <CircularProgress size={24} />;

  const validate = (values: Record<string, any>) => {
    const errors = validatePayload('itpOrganization', toPayload(values));
    return errors.length ? fieldErrorsToObject(errors) : {};
  };
  const submit = async (values: Record<string, any>) => {
    try {
      setRecord(await api.put<ItpOrganizationRecord>('/api/itp-organization', toPayload(values)));
      notify('Organization settings updated', { type: 'success' });
      void reloadSession();
    } catch (e) {
      if (isCodedError(e) && e.fields.length) return fieldErrorsToObject(e.fields);
      notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <Box data-testid="itp-general" sx={{ maxWidth: 560 }}>
      <Form key={JSON.stringify(record)} record={record} onSubmit={submit} validate={validate}>
        <TextInput source="organizationName" label="Organization name" fullWidth isRequired inputProps={{ maxLength: TEXT_MEDIUM }} helperText={false} />
        <TextInput
          source="erLine"
          label="ER line"
          fullWidth
          isRequired
          inputProps={{ maxLength: TEXT_MEDIUM, 'data-testid': 'er-line' }}
          helperText="The emergency-room line (toll free) shown to every facility user"
        />
        <BooleanInput source="mfaEnabled" label="Multi-factor authentication required for ITP staff" helperText={false} />
        <SaveBar />
      </Form>
    </Box>
  );
}
