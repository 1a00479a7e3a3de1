import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import { USER_TYPE_LABELS, UserType, type UserType as Role } from '@crisis/forms';
import { useSession } from '../../auth/session';
import { CallsCard } from '../../placement/calls-card/CallsCard';
import { AcceptedCasesTable } from '../../placement/accepted/AcceptedCasesTable';

const PANEL_BY_ROLE: Record<Role, string> = {
  [UserType.ItpAdmin]: 'Manage users, facilities and reference data from the Admin menu.',
  [UserType.ItpUser]: 'Partner search and case cards will appear here.',
  [UserType.ItpProvider]: 'Your provider panel and assigned cases will appear here.',
  [UserType.FacilityAdmin]: "Your facility's case tables will appear here.",
  [UserType.FacilityUser]: "Your division's case tables will appear here.",
  [UserType.GroupUser]: 'The group panel will appear here.',
};

/** /dashboard: a per-role welcome panel (the real panels come with the case screens). */
export function DashboardPage() {
  const { context, ability } = useSession();
  return (
    <Box data-testid="dashboard">
      <Card>
        <CardContent>
          <Typography variant="h5" gutterBottom data-testid="dashboard-welcome">
            Welcome, {context.firstName} {context.lastName}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
            <Chip label={USER_TYPE_LABELS[context.role]} color="primary" size="small" data-testid="dashboard-role" />
            <Typography color="text.secondary">{context.organizationName}</Typography>
            {context.divisionName && <Typography color="text.secondary">· {context.divisionName}</Typography>}
          </Box>
          <Typography>{PANEL_BY_ROLE[context.role]}</Typography>
        </CardContent>
      </Card>
      {ability.can('manage', 'Placement') && <CallsCard />}
      {ability.can('read', 'AcceptedCase') && <AcceptedCasesTable />}
    </Box>
  );
}
