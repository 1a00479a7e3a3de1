import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useNotify } from 'react-admin';
import { normalizeInput, type FacilityEhrConnectionRecord, type FacilityEhrTestRecord } from '@crisis/forms/core';
import { validatePayload } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { useAppMutation } from '../../data/query';
import { useTabQuery } from './TabTable';

type Fields = { dialect: string; baseUrl: string; tokenUrl: string; clientId: string; keyId: string };
const EMPTY: Fields = { dialect: 'epic', baseUrl: '', tokenUrl: '', clientId: '', keyId: '' };
const fromRecord = (r: FacilityEhrConnectionRecord | null): Fields =>
  r ? { dialect: r.dialect ?? 'epic', baseUrl: r.baseUrl ?? '', tokenUrl: r.tokenUrl ?? '', clientId: r.clientId ?? '', keyId: r.keyId ?? '' } : EMPTY;

/**
 * The facility's EHR (FHIR R4) connection (issue 16, README "EHR (FHIR R4)"): dialect, base and
 * token URLs, client id and key id; a generated key whose public JWKS is given to the hospital; a
 * test of the connection. The private key is never shown.
 */
export function EhrConnectionCard({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const query = useTabQuery(facilityId, ['ehrConnection'], (dp) => dp.ehrConnection(facilityId), true);
  const record = query.data;
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [jwks, setJwks] = useState<string | null>(null);
  const [test, setTest] = useState<{ ok: FacilityEhrTestRecord } | { error: string } | null>(null);
  useEffect(() => setFields(fromRecord(record)), [record]);

  const invalidates = [['facilityTab', facilityId, 'ehrConnection']];
  const save = useAppMutation((dp, body: Record<string, unknown>) => dp.saveEhrConnection(facilityId, body as never), invalidates);
  const generate = useAppMutation((dp) => dp.generateEhrKey(facilityId), invalidates);
  const runTest = useAppMutation((dp) => dp.testEhrConnection(facilityId));

  const set = (k: keyof Fields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [k]: e.target.value }));
    setErrors((es) => ({ ...es, [k]: '' }));
  };
  const onSave = async () => {
    const payload = normalizeInput({ ...fields }) as Record<string, unknown>;
    const found = validatePayload('facilityEhrConnection', payload);
    if (found.length) return setErrors(Object.fromEntries(found.map((e) => [e.field, e.message])));
    try {
      await save.mutateAsync(payload);
      notify('EHR connection saved', { type: 'success' });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };
  const onGenerate = async () => {
    try {
      const key = await generate.mutateAsync(undefined);
      setJwks(JSON.stringify(key.jwks, null, 2));
      setFields((f) => ({ ...f, keyId: key.keyId }));
      notify('New key generated: register its public JWKS with the EHR', { type: 'info' });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };
  const onTest = async () => {
    setTest(null);
    try {
      setTest({ ok: await runTest.mutateAsync(undefined) });
    } catch (e) {
      // The EHR's own answer says what to check (which client, which key): show it, not only the code's text.
      setTest({ error: isCodedError(e) && e.defaultMessage ? e.defaultMessage : (e as Error).message });
    }
  };
  const text = (k: keyof Fields, label: string, width = 420) => (
    <TextField
      size="small"
      label={label}
      value={fields[k]}
      onChange={set(k)}
      error={!!errors[k]}
      helperText={errors[k] || ' '}
      sx={{ width }}
      slotProps={{ htmlInput: { 'data-testid': `ehr-${k}` } }}
    />
  );

  return (
    <Card variant="outlined" sx={{ mb: 3 }} data-testid="ehr-connection-card">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          EHR connection
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          FHIR R4 with SMART Backend Services. {record?.isIntegrated ? 'The facility is EHR-integrated.' : 'Not integrated until the EHR department id and a complete connection are saved.'}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          <TextField select size="small" label="Dialect" value={fields.dialect} onChange={set('dialect')} sx={{ width: 200 }} helperText={errors.dialect || ' '} error={!!errors.dialect} data-testid="ehr-dialect">
            <MenuItem value="epic">Epic</MenuItem>
            <MenuItem value="athena">athenahealth</MenuItem>
          </TextField>
          {text('baseUrl', 'FHIR base URL')}
          {text('tokenUrl', 'Token URL')}
          {text('clientId', 'Client id', 300)}
          {text('keyId', 'Key id', 300)}
        </Box>
        <Typography variant="body2" sx={{ mb: 1 }}>
          Private key: {record?.hasPrivateKey ? 'stored (never shown)' : 'none — generate one'}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
          <Button variant="contained" onClick={onSave} disabled={save.isPending} data-testid="ehr-save">
            Save
          </Button>
          <Button variant="outlined" onClick={onGenerate} disabled={generate.isPending} data-testid="ehr-generate-key">
            Generate key
          </Button>
          <Button variant="outlined" onClick={onTest} disabled={runTest.isPending} data-testid="ehr-test">
            Test connection
          </Button>
        </Box>
        {jwks && (
          <TextField
            label="Public JWKS — give this to the hospital's EHR team"
            value={jwks}
            multiline
            fullWidth
            minRows={4}
            maxRows={12}
            slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace', fontSize: 12 } }, htmlInput: { 'data-testid': 'ehr-jwks' } }}
            onFocus={(e) => e.target.select()}
            sx={{ mb: 2 }}
          />
        )}
        {test && 'ok' in test && (
          <Alert severity="success" data-testid="ehr-test-result">
            Connected: FHIR {test.ok.fhirVersion}
            {test.ok.software ? `, ${test.ok.software}` : ''}
          </Alert>
        )}
        {test && 'error' in test && (
          <Alert severity="error" data-testid="ehr-test-result">
            {test.error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
