import { Box, Chip, Typography } from '@mui/material';
import { useLocation } from 'react-router-dom';
import { useSession } from '../auth/session';
import { PhoneNumber } from '../common/phone';

/** Facility users: facility and division name, and the ER line (hidden on cases pages for Referring). */
export function FacilityLabel() {
  const { navigation } = useSession();
  const { pathname } = useLocation();
  const label = navigation.facilityLabel;
  if (!label) return null;
  const onCases = pathname === '/cases' || pathname.startsWith('/cases/');
  const showEr = !!label.erLine && !(label.hideErLineOnCases && onCases);
  return (
    <Box data-testid="facility-label" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', mr: 2, lineHeight: 1.2 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="facility-label-name">
        {label.facilityName}
        {label.divisionName ? ` · ${label.divisionName}` : ''}
      </Typography>
      {showEr && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="facility-label-er-line">
          <Typography variant="caption">ER line: <PhoneNumber value={label.erLine} /></Typography>
          <Chip label="Toll free" size="small" sx={{ height: 18, fontSize: 11, bgcolor: 'transparent', border: '1px solid rgba(255,255,255,0.7)', color: 'inherit' }} />
        </Box>
      )}
    </Box>
  );
}
