import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import { BooleanInput, Form, TextInput, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { ErrorCode, IP_LIST_MAX, type IpWhiteListSettingsRecord } from '@crisis/forms/core';
import { useConfirmation } from '../../../common/ConfirmDialog';
import { validatePayload } from '../../../common/schemaValidation';
import { fieldErrorsToObject, isCodedError } from '../../../data/codedError';
import { api } from '../../../data/httpClient';

const toPayload = (facilityId: number | null, v: Record<string, any>) => ({
  facilityId,
  ipWhiteListEnabled: !!v.ipWhiteListEnabled,
  ipAddresses: v.ipAddresses ?? null,
});

function SaveBar() {
  const { isDirty, isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting} data-testid="ip-allow-list-save">
      Save
    </Button>
  );
}

/**
 * IP allow-list of the ITP organization (facilityId null) or of a facility (spec 03 §3, §5):
 * enabled flag and a comma-separated list of IPv4 addresses with optional /0–32 masks. The same
 * rules as the API (forms/ ipWhiteListSettings) run before the call. A list that would shut the
 * admin out (the API names her current address) is saved only after she confirms it.
 */
export function IpAllowListForm({ facilityId }: { facilityId: number | null }) {
  const notify = useNotify();
  const { ask, dialog } = useConfirmation();
  const [organizationId, setOrganizationId] = useState<number | null>(null);
  const [record, setRecord] = useState<IpWhiteListSettingsRecord | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      const org = await api.get<{ id: number }>('/api/itp-organization');
      setOrganizationId(org.id);
      const query = facilityId === null ? '' : `?facilityId=${facilityId}`;
      setRecord(await api.get<IpWhiteListSettingsRecord>(`/api/itp-organization/${org.id}/organization-ip-whitelist-settings${query}`));
    } catch {
      setFailed(true);
    }
  }, [facilityId]);
  useEffect(() => {
    void load();
  }, [load]);

  if (failed) return <Alert severity="error">The IP allow-list could not be loaded.</Alert>;
  if (!record || organizationId === null) return <CircularProgress size={24} />;

  const validate = (values: Record<string, any>) => {
    const errors = validatePayload('ipWhiteListSettings', toPayload(facilityId, values));
    return errors.length ? fieldErrorsToObject(errors) : {};
  };
  const submit = async (values: Record<string, any>, confirmed = false): Promise<Record<string, string> | undefined> => {
    try {
      const saved = await api.put<IpWhiteListSettingsRecord>(
        `/api/itp-organization/${organizationId}/update-ip-whitelist-settings`,
        { ...toPayload(facilityId, values), ...(confirmed ? { confirmed: true } : {}) },
      );
      setRecord(saved);
      notify('IP allow-list updated', { type: 'success' });
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.IpAllowListExcludesCurrentAddress) {
        const address = String((e.payload as { ipAddress?: unknown } | null)?.ipAddress ?? 'unknown');
        ask({
          title: 'This list leaves out your address',
          message: (
            <span data-testid="ip-allow-list-self-exclusion">
              Your current address, <strong>{address}</strong>, is not on this list. Once it is saved you can no longer use the
              application from this address. Save it anyway?
            </span>
          ),
          onConfirm: async () => void (await submit(values, true)),
        });
        return undefined;
      }
      if (isCodedError(e) && e.fields.length) return fieldErrorsToObject(e.fields);
      notify((e as Error).message, { type: 'error' });
    }
    return undefined;
  };

  return (
    <Box data-testid="ip-allow-list" sx={{ maxWidth: 720 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        When enabled, users of this organization can call the application only from these addresses: IPv4 addresses
        separated by commas, each with an optional /0–32 mask (for example 203.0.113.0/24, 198.51.100.7).
      </Typography>
      <Form key={JSON.stringify(record)} record={record} onSubmit={(values: Record<string, any>) => submit(values)} validate={validate}>
        <BooleanInput source="ipWhiteListEnabled" label="IP allow-list enabled" helperText={false} />
        <TextInput
          source="ipAddresses"
          label="IP addresses"
          multiline
          minRows={3}
          fullWidth
          inputProps={{ maxLength: IP_LIST_MAX, 'data-testid': 'ip-addresses' }}
          helperText={`At most ${IP_LIST_MAX} characters`}
        />
        <SaveBar />
      </Form>
      {dialog}
    </Box>
  );
}
