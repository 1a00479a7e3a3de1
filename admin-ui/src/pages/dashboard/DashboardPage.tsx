import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import { USER_TYPE_LABELS, UserType, type UserType as Role } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { CallsCard } from '../../placement/calls-card/CallsCard';
import { AcceptedCasesTable } from '../../placement/accepted/AcceptedCasesTable';
import { CaseList } from '../../cases/list/CaseList';
import { CaseSearchBox, FinalizedCasesTable, GroupPanelCard, ProviderPanelCard } from './panels';

const PANEL_BY_ROLE: Record<Role, string> = {
  [UserType.ItpAdmin]: 'Divisions to call and open cases are below; users, facilities and reference data are in the Admin menu.',
  [UserType.ItpUser]: 'Divisions to call and the open cases are below.',
  [UserType.ItpProvider]: 'Your assigned cases are under Cases.',
  [UserType.FacilityAdmin]: "Your facility's open cases are below; its users and settings are in the Admin menu.",
  [UserType.FacilityUser]: "Your division's open cases are below.",
  [UserType.GroupUser]: 'Past cases of your counties are under Past cases.',
};

/** /dashboard: a per-role welcome panel, the calls card, accepted cases and the case table (spec 02 §2). */
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
      {ability.can('access', 'DashboardSearch') && <CaseSearchBox />}
      {ability.can('access', 'GroupPanel') && <GroupPanelCard />}
      {ability.can('access', 'ProviderPanel') && <ProviderPanelCard />}
      {ability.can('manage', 'Placement') && <CallsCard />}
      {ability.can('read', 'AcceptedCase') && <AcceptedCasesTable />}
      {/* ITP and facility staff's case table (spec 02 §2 /dashboard); providers have their Cases page. */}
      {ability.can('read', 'Case') && !ability.can('access', 'ProviderCases') && (
        <Box sx={{ mt: 2 }} data-testid="dashboard-cases">
          <Typography variant="h6" sx={{ mb: 1 }}>
            Cases
          </Typography>
          <CaseList embedded />
        </Box>
      )}
      {ability.can('access', 'FinalizedCases') && <FinalizedCasesTable linkPatient={context.role === UserType.FacilityAdmin} />}
    </Box>
  );
}
