import { Box } from '@mui/material';
import { PageTitle } from '../common/PageTitle';
import { FacilityTabs } from '../facilities/FacilityTabs';
import type { FacilityTab } from '../facilities/facilityTabVisibility';
import { IpAllowListForm } from '../facilities/tabs/ip-allow-list';
import { SsoSettingsForm } from '../facilities/tabs/sso';
import { ItpGeneralForm } from './ItpGeneralForm';

const TABS: FacilityTab[] = [
  { key: 'general', path: '', label: 'General' },
  { key: 'external-login-provider-settings', path: 'external-login-provider-settings', label: 'SSO' },
  { key: 'ip-white-list', path: 'ip-white-list', label: 'IP allow-list' },
];

/** /itp-organization-settings (spec 03 §2): general, external-login-provider-settings, IP allow-list. ITP admin only. */
export function ItpOrganizationSettingsPage() {
  return (
    <Box data-testid="itp-organization-settings">
      <PageTitle title="ITP organization settings" />
      <FacilityTabs
        basePath="/itp-organization-settings"
        tabs={TABS}
        render={(tab) => {
          if (tab.key === 'external-login-provider-settings') return <SsoSettingsForm facilityId={null} />;
          if (tab.key === 'ip-white-list') return <IpAllowListForm facilityId={null} />;
          return <ItpGeneralForm />;
        }}
      />
    </Box>
  );
}
