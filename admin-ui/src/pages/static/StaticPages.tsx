import { Box, Typography } from '@mui/material';
import { PageTitle } from '../../common/PageTitle';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Integer nec odio. Praesent libero. Sed cursus ante dapibus diam. ' +
  'Sed nisi. Nulla quis sem at nibh elementum imperdiet. Duis sagittis ipsum. Praesent mauris.';

function StaticPage({ title, testId }: { title: string; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ maxWidth: 800 }}>
      <PageTitle title={title} />
      <Typography paragraph>{LOREM}</Typography>
      <Typography paragraph>{LOREM}</Typography>
    </Box>
  );
}

export const TermsPage = () => <StaticPage title="Terms and conditions" testId="terms-page" />;
export const AboutPage = () => <StaticPage title="About us" testId="about-page" />;
