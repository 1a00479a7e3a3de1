import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useNotify } from 'react-admin';
import { useParams } from 'react-router-dom';
import { AVATAR_SIZE, MFA_METHODS, UPLOAD_MAX_BYTES, USER_TYPE_LABELS, type FieldError } from '@crisis/forms/core';
import { useReloadSession, useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { validatePayload } from '../common/schemaValidation';
import { usersApi } from '../users/usersDataProvider';
import { UserAvatar } from '../users/UserAvatar';
import { announceOwnAvatar } from '../layout/avatarEvents';
import { avatarApi } from '../users/uploads';

const FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['phone', 'Phone'],
  ['jobTitle', 'Job title'],
] as const;

function ReadOnlyRow({ label, value, testId }: { label: string; value: string | null | undefined; testId: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '200px 1fr', py: 0.75, borderBottom: '1px solid', borderColor: 'divider' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography data-testid={testId}>{value || '—'}</Typography>
    </Box>
  );
}

/** The methods as the Reset-MFA dialog names them (spec 03 §2: SMS or Email). */
const MFA_LABEL: Record<(typeof MFA_METHODS)[number], string> = { Sms: 'SMS', Email: 'Email' };

/** /me (optional id): own profile; names, phone and job title are editable, the affiliation is read-only. */
export function MyProfilePage() {
  const { context: c } = useSession();
  const { id } = useParams();
  const userId = id ? Number(id) : c.id;
  const notify = useNotify();
  const reloadSession = useReloadSession();
  const [values, setValues] = useState<Record<string, any> | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    usersApi.getProfile(userId).then(setValues, (e) => setFailed(e?.message ?? 'Profile not found'));
  }, [userId]);

  if (failed) return <Alert severity="error">{failed}</Alert>;
  if (!values) return null;
  const errorOf = (f: string) => errors.find((e) => e.field === f)?.message;
  const payload = () => ({ firstName: values.firstName, lastName: values.lastName, phone: values.phone, jobTitle: values.jobTitle, mfaMethod: values.mfaMethod ?? null });
  const save = async () => {
    const found = validatePayload('profile', payload());
    setErrors(found);
    if (found.length) return;
    try {
      setValues(await usersApi.updateProfile(userId, payload()));
      notify('Profile updated', { type: 'success' });
      // The menus read the session's copy (the Reset-MFA dialog names the method).
      if (userId === c.id) void reloadSession();
    } catch (e: any) {
      if (e?.fields?.length) setErrors(e.fields);
      notify(e?.message ?? 'Saving failed', { type: 'error' });
    }
  };
  const uploadAvatar = async (file: File | undefined) => {
    if (!file) return;
    if (file.size === 0) return notify("You can't upload empty file", { type: 'error' });
    if (file.size > UPLOAD_MAX_BYTES) return notify('File size bigger than allowed max size', { type: 'error' });
    try {
      const { avatar } = await avatarApi.store(file);
      setValues({ ...values, avatar });
      announceOwnAvatar(avatar);
      notify('Avatar updated', { type: 'success' });
    } catch (e: any) {
      notify(e?.message ?? 'The avatar could not be stored', { type: 'error' });
    }
  };
  const fullName = `${values.firstName ?? ''} ${values.lastName ?? ''}`.trim();
  return (
    <Box data-testid="profile">
      <PageTitle title="My profile" />
      <Card sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 3 }}>
          <UserAvatar reference={values.avatar} name={fullName} size={AVATAR_SIZE.lg} testId="profile-avatar" />
          {userId === c.id && (
            <Button variant="outlined" component="label" data-testid="profile-avatar-change">
              Change picture
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                data-testid="profile-avatar-file"
                onChange={(e) => {
                  void uploadAvatar(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </Button>
          )}
        </CardContent>
      </Card>
      <Card sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 520 }}>
          {FIELDS.map(([f, label]) => (
            <TextField
              key={f}
              label={label}
              value={values[f] ?? ''}
              onChange={(e) => setValues({ ...values, [f]: e.target.value })}
              error={!!errorOf(f)}
              helperText={errorOf(f) ?? ' '}
              slotProps={{ htmlInput: { 'data-testid': `profile-input-${f}` } }}
            />
          ))}
          {values.mfaMethod && (
            // Her sign-in codes come by the method she chose (set at her first MFA sign-in; SMS goes to the phone above).
            <TextField
              select
              label="MFA method"
              value={values.mfaMethod}
              onChange={(e) => setValues({ ...values, mfaMethod: e.target.value })}
              error={!!errorOf('mfaMethod')}
              helperText={errorOf('mfaMethod') ?? 'Where your sign-in codes are sent'}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'profile-input-mfaMethod' } as object } }}
            >
              {MFA_METHODS.map((m) => (
                <MenuItem key={m} value={m} data-testid={`profile-mfa-option-${m}`}>
                  {MFA_LABEL[m]}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Box>
            <Button variant="contained" onClick={save} data-testid="profile-save">
              Save
            </Button>
          </Box>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="subtitle1" sx={{ mb: 1 }}>
            Affiliation
          </Typography>
          <ReadOnlyRow label="E-mail" value={values.email} testId="profile-email" />
          <ReadOnlyRow label="Role" value={USER_TYPE_LABELS[values.userType as keyof typeof USER_TYPE_LABELS]} testId="profile-role" />
          <ReadOnlyRow label="Organization" value={values.organizationName} testId="profile-organization" />
          {values.divisions?.length > 0 && (
            <ReadOnlyRow label="Divisions" value={values.divisions.map((d: { name: string }) => d.name).join(', ')} testId="profile-divisions" />
          )}
          {!values.mfaMethod && <ReadOnlyRow label="MFA method" value="Off" testId="profile-mfa" />}
        </CardContent>
      </Card>
    </Box>
  );
}
