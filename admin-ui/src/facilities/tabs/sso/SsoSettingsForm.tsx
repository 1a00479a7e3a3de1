import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Link, Stack, TextField, Typography } from '@mui/material';
import { BooleanInput, Form, TextInput, useNotify } from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { SSO_CERTIFICATE_MAX, SSO_TEXT_MAX, type ExternalLoginSettingsRecord } from '@crisis/forms/core';
import { validatePayload } from '../../../common/schemaValidation';
import { fieldErrorsToObject, isCodedError } from '../../../data/codedError';
import { api } from '../../../data/httpClient';

const toPayload = (v: Record<string, any>) => ({
  enabled: !!v.enabled,
  identityProviderEntityId: v.identityProviderEntityId ?? null,
  signInUrl: v.signInUrl ?? null,
  x509Certificate: v.x509Certificate ?? null,
  userEmailClaim: v.userEmailClaim ?? null,
  disablePasswordLogin: !!v.disablePasswordLogin,
});

function SaveBar() {
  const { isDirty, isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting} data-testid="sso-save">
      Save
    </Button>
  );
}

/** Entity id, sign-in URL and certificate are required only when SSO is enabled: mark them so. */
function SsoFields() {
  const enabled = !!useWatch({ name: 'enabled' });
  return (
    <>
      <BooleanInput source="enabled" label="Single sign-on enabled" helperText={false} />
      <TextInput
        source="identityProviderEntityId"
        label="Identity provider entity id"
        fullWidth
        isRequired={enabled}
        inputProps={{ maxLength: SSO_TEXT_MAX }}
        helperText={false}
      />
      <TextInput source="signInUrl" label="Sign-in URL" fullWidth isRequired={enabled} inputProps={{ maxLength: SSO_TEXT_MAX }} helperText={false} />
      <TextInput
        source="x509Certificate"
        label="X.509 certificate (PEM)"
        fullWidth
        multiline
        minRows={6}
        isRequired={enabled}
        inputProps={{ maxLength: SSO_CERTIFICATE_MAX, style: { fontFamily: 'monospace', fontSize: 12 } }}
        helperText="The identity provider's signing certificate"
      />
      <TextInput
        source="userEmailClaim"
        label="User e-mail claim"
        fullWidth
        inputProps={{ maxLength: SSO_TEXT_MAX }}
        helperText="Attribute carrying the user's e-mail; blank: the subject (NameID)"
      />
      <BooleanInput source="disablePasswordLogin" label="Disable password login (admins keep it)" helperText={false} />
    </>
  );
}

/**
 * SAML single sign-on settings of the ITP organization (facilityId null) or of a facility
 * (spec 03 §3 External login settings, §4: changes may take up to 10 minutes to apply; isOutdated
 * and applyFailed are shown as alerts; no configuration yet shows an info alert).
 */
export function SsoSettingsForm({ facilityId }: { facilityId: number | null }) {
  const notify = useNotify();
  const url = facilityId === null ? '/api/itp-organization/external-login-provider-settings' : `/api/facilities/${facilityId}/external-login-provider-settings`;
  const [record, setRecord] = useState<ExternalLoginSettingsRecord | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setRecord(await api.get<ExternalLoginSettingsRecord>(url));
    } catch {
      setFailed(true);
    }
  }, [url]);
  useEffect(() => {
    void load();
  }, [load]);

  if (failed) return <Alert severity="error">The single sign-on settings could not be loaded.</Alert>;
  if (!record) return <CircularProgress size={24} />;

  const validate = (values: Record<string, any>) => {
    const errors = validatePayload('externalLoginSettings', toPayload(values));
    return errors.length ? fieldErrorsToObject(errors) : {};
  };
  const submit = async (values: Record<string, any>) => {
    try {
      setRecord(await api.put<ExternalLoginSettingsRecord>(url, toPayload(values)));
      notify('Single sign-on settings updated. Changes may take up to 10 minutes to apply.', { type: 'success' });
    } catch (e) {
      if (isCodedError(e) && e.fields.length) return fieldErrorsToObject(e.fields);
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Box data-testid="sso-settings" sx={{ maxWidth: 820 }}>
      <Stack spacing={1} sx={{ mb: 2 }}>
        {record.id === null && (
          <Alert severity="info" data-testid="sso-not-configured">
            Single sign-on is not configured yet.
          </Alert>
        )}
        {record.isOutdated && (
          <Alert severity="warning" data-testid="sso-outdated">
            The latest changes are not applied yet; they may take up to 10 minutes.
          </Alert>
        )}
        {record.applyFailed && (
          <Alert severity="error" data-testid="sso-apply-failed">
            The latest changes could not be applied. Check the settings and save again.
          </Alert>
        )}
      </Stack>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Service provider (give these to your identity provider)
      </Typography>
      <TextField
        label="Service provider entity id"
        value={record.serviceProviderId}
        fullWidth
        size="small"
        slotProps={{ input: { readOnly: true } }}
        sx={{ mb: 2 }}
        data-testid="sso-service-provider-id"
      />
      <TextField
        label="Assertion consumer service URL (HTTP-POST)"
        value={`${record.serviceProviderId}/acs`}
        fullWidth
        size="small"
        slotProps={{ input: { readOnly: true } }}
        sx={{ mb: 1 }}
        data-testid="sso-acs-url"
      />
      <Typography variant="body2" sx={{ mb: 2 }}>
        <Link href={record.serviceProviderId} target="_blank" rel="noopener noreferrer" data-testid="sso-metadata-link">
          Service provider metadata (XML)
        </Link>
      </Typography>
      <Form key={JSON.stringify(record)} record={{ ...record, id: record.id ?? undefined }} onSubmit={submit} validate={validate}>
        <SsoFields />
        <SaveBar />
      </Form>
    </Box>
  );
}
