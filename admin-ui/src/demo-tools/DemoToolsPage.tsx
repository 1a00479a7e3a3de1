import { Box, Typography } from '@mui/material';
import { PageTitle } from '../common/PageTitle';
import { MeetingsTable } from './MeetingsTable';
import { OutboxTabs } from './OutboxTabs';
import { PhoneSimulator } from './PhoneSimulator';

/** /demo-tools: what the demo deployment "sent" (e-mails, SMS, calls), e.g. to read an MFA code. */
export function DemoToolsPage({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <Box data-testid="demo-tools">
      <PageTitle title="Demo tools" />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Messages the platform would have sent through e-mail, SMS and phone calls.
      </Typography>
      <OutboxTabs />
      {/* Plays a facility's phone against the demo's local phone; hides itself where there is none. */}
      <PhoneSimulator />
      {/* The meetings need a signed-in user (their rooms are not for the public sign-in page). */}
      {signedIn && <MeetingsTable />}
    </Box>
  );
}
