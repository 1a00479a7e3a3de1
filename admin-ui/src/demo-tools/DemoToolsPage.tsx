import { Box, Typography } from '@mui/material';
import { PageTitle } from '../common/PageTitle';
import { OutboxTabs } from './OutboxTabs';

/** /demo-tools: what the demo deployment "sent" (e-mails, SMS, calls), e.g. to read an MFA code. */
export function DemoToolsPage() {
  return (
    <Box data-testid="demo-tools">
      <PageTitle title="Demo tools" />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Messages the platform would have sent through e-mail, SMS and phone calls.
      </Typography>
      <OutboxTabs />
    </Box>
  );
}
