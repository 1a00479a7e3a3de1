import { useState } from 'react';
import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useNotify } from 'react-admin';
import { ErrorCode, PASSWORD_RULE_TEXT, type FieldError } from '@crisis/forms/core';
import { PageTitle } from '../common/PageTitle';
import { validatePayload } from '../common/schemaValidation';
import { usersApi } from '../users/usersDataProvider';

const FIELDS = [
  ['currentPassword', 'Current password', 'current-password'],
  ['newPassword', 'New password', 'new-password'],
  ['confirmPassword', 'Confirm new password', 'new-password'],
] as const;

/** /change-password (spec 03 §5): OPWD from the server shows on the current-password field. */
export function ChangePasswordPage() {
  const notify = useNotify();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const errorOf = (f: string) => {
    const e = errors.find((x) => x.field === f);
    if (!e) return undefined;
    return f === 'newPassword' && e.key === 'pattern' ? PASSWORD_RULE_TEXT : e.message;
  };
  const save = async () => {
    const found = validatePayload('changePassword', values);
    setErrors(found);
    if (found.length) return;
    try {
      await usersApi.changePassword(values);
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      notify('Password changed', { type: 'success' });
    } catch (e: any) {
      if (e?.code === ErrorCode.WrongCurrentPassword)
        setErrors([{ field: 'currentPassword', key: 'currentPasswordInvalid', message: 'Current password invalid' }]);
      else if (e?.fields?.length) setErrors(e.fields);
      else notify(e?.message ?? 'Changing the password failed', { type: 'error' });
    }
  };
  return (
    <Box data-testid="change-password">
      <PageTitle title="Change password" />
      <Card>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420 }}>
          <Typography variant="body2" color="text.secondary">
            {PASSWORD_RULE_TEXT}
          </Typography>
          {FIELDS.map(([f, label, autoComplete]) => (
            <TextField
              key={f}
              type="password"
              label={label}
              autoComplete={autoComplete}
              value={values[f]}
              onChange={(e) => setValues({ ...values, [f]: e.target.value })}
              error={!!errorOf(f)}
              helperText={errorOf(f) ?? ' '}
              slotProps={{ htmlInput: { 'data-testid': `change-password-${f}` } }}
            />
          ))}
          <Box>
            <Button variant="contained" onClick={save} data-testid="change-password-save">
              Change password
            </Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
