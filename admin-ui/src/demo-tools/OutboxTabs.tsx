import { useState } from 'react';
import { Box, Tab, Tabs } from '@mui/material';
import type { OutboxRow } from '../data/dataProvider';
import { OutboxTable } from './OutboxTable';

const CHANNELS: Array<{ channel: OutboxRow['channel']; label: string }> = [
  { channel: 'email', label: 'E-mails' },
  { channel: 'sms', label: 'SMS' },
  { channel: 'call', label: 'Calls' },
];

export function OutboxTabs() {
  const [channel, setChannel] = useState<OutboxRow['channel']>('email');
  return (
    <Box>
      <Tabs value={channel} onChange={(_e, v) => setChannel(v)} sx={{ mb: 2 }}>
        {CHANNELS.map((c) => (
          <Tab key={c.channel} value={c.channel} label={c.label} data-testid={`outbox-tab-${c.channel}`} />
        ))}
      </Tabs>
      <OutboxTable channel={channel} />
    </Box>
  );
}
