import { Box, Card, CardContent, Typography } from '@mui/material';
import { USER_TYPE_LABELS, enumLabel, formatPhone } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { PageTitle } from '../../common/PageTitle';

function Row({ label, value, testId }: { label: string; value: string | null | undefined; testId: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '200px 1fr', py: 0.75, borderBottom: '1px solid', borderColor: 'divider' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography data-testid={testId}>{value || '—'}</Typography>
    </Box>
  );
}

/** /me: the signed-in user's profile, read-only for now (affiliation is always read-only). */
export function ProfilePage() {
  const { context: c } = useSession();
  return (
    <Box data-testid="profile">
      <PageTitle title="My profile" />
      <Card>
        <CardContent>
          <Row label="First name" value={c.firstName} testId="profile-firstName" />
          <Row label="Last name" value={c.lastName} testId="profile-lastName" />
          <Row label="E-mail" value={c.email} testId="profile-email" />
          <Row label="Role" value={USER_TYPE_LABELS[c.role]} testId="profile-role" />
          <Row label="Organization" value={c.organizationName} testId="profile-organization" />
          {c.facilityName && <Row label="Facility" value={c.facilityName} testId="profile-facility" />}
          {c.divisionName && <Row label="Division" value={`${c.divisionName}${c.divisionType ? ` (${c.divisionType})` : ''}`} testId="profile-division" />}
          <Row label="MFA method" value={c.mfaMethod ? enumLabel(c.mfaMethod) : 'Off'} testId="profile-mfa" />
          {c.smsNotifications?.phone && <Row label="SMS phone" value={formatPhone(c.smsNotifications.phone)} testId="profile-sms-phone" />}
        </CardContent>
      </Card>
    </Box>
  );
}
