import type { ReactNode } from 'react';
import { Alert, AlertTitle, Box, Tab, Tabs } from '@mui/material';
import { Link, useLocation } from 'react-router-dom';
import type { FacilityTab } from './facilityTabVisibility';

/** Facility detail tabs routed by path (/facilities/12/divisions); only the active tab is mounted. */
export function FacilityTabs({
  basePath,
  tabs,
  render,
}: {
  basePath: string;
  tabs: FacilityTab[];
  render: (tab: FacilityTab) => ReactNode;
}) {
  const { pathname } = useLocation();
  const rest = pathname.startsWith(basePath) ? pathname.slice(basePath.length).replace(/^\/+|\/+$/g, '') : '';
  const active = tabs.find((t) => t.path === rest.split('/')[0]) ?? tabs[0];
  return (
    <Box>
      <Tabs value={active.key} variant="scrollable" scrollButtons="auto" sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        {tabs.map((t) => (
          <Tab
            key={t.key}
            value={t.key}
            label={t.label}
            component={Link}
            to={t.path ? `${basePath}/${t.path}` : basePath}
            replace
            data-testid={`facility-tab-${t.key}`}
          />
        ))}
      </Tabs>
      <Box key={active.key} data-testid={`facility-tabpanel-${active.key}`}>
        {render(active)}
      </Box>
    </Box>
  );
}

/**
 * A tab of a facility not saved yet: preferred facilities, evaluation forms, state restrictions and
 * the IP allow-list belong to a saved facility (their rows name it). Saving the general tab opens
 * the facility with every tab.
 */
export function SaveFacilityFirstTab({ label }: { label: string }) {
  return (
    <Box data-testid="facility-save-first" sx={{ p: 2, maxWidth: 640 }}>
      <Alert severity="info">
        <AlertTitle>{label}</AlertTitle>
        Fill in the General tab and save the facility first: it then opens with this tab ready to use.
      </Alert>
    </Box>
  );
}
