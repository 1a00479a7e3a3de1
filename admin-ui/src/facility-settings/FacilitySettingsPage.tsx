import { Box, CircularProgress } from '@mui/material';
import { useGetOne } from 'react-admin';
import { useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { DivisionsTab } from '../facilities/divisions/DivisionsTab';
import { SsoSettingsForm } from '../facilities/tabs/sso';
import { FacilityTabs } from '../facilities/FacilityTabs';
import { facilityTabsFor } from '../facilities/facilityTabVisibility';
import type { FacilityRecord } from '../facilities/facilityTypes';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
import { FacilityMfaForm } from './FacilityMfaForm';

/** /facility/settings: the signed-in facility admin's own facility (search and status hidden, no cancel). */
export function FacilitySettingsPage() {
  const session = useSession();
  const facilityId = session.context.facilityId;
  const { data, isPending, error, refetch } = useGetOne<FacilityRecord>(
    'facilities',
    { id: facilityId ?? 0 },
    { enabled: facilityId !== null },
  );
  if (facilityId === null || error) return <NotFoundPage />;
  if (isPending || !data)
    return (
      <Box sx={{ p: 4 }}>
        <CircularProgress />
      </Box>
    );
  return (
    <Box data-testid="facility-settings">
      <PageTitle title={data.name} />
      <FacilityTabs
        basePath="/facility/settings"
        tabs={facilityTabsFor(session, false)}
        render={(tab) => {
          if (tab.key === 'general') return <FacilityMfaForm record={data} onSaved={() => refetch()} />;
          if (tab.key === 'divisions') return <DivisionsTab facilityId={data.id} hideSearch />;
          if (tab.key === 'external-login-provider-settings') return <SsoSettingsForm facilityId={data.id} />;
          return null;
        }}
      />
    </Box>
  );
}
