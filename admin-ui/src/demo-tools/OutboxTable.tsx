import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { formatDateTime, formatPhone } from '@crisis/forms/core';
import { api } from '../data/httpClient';
import type { OutboxRow } from '../data/dataProvider';

const REFRESH_MS = 5000;

/** One channel of the demo outbox, newest first, refreshed every few seconds. */
export function OutboxTable({ channel }: { channel: OutboxRow['channel'] }) {
  const [rows, setRows] = useState<OutboxRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api
      .get<OutboxRow[]>(`/api/demo-tools/outbox?channel=${channel}`)
      .then((r) => {
        setRows(Array.isArray(r) ? r : []);
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  }, [channel]);
  useEffect(() => {
    load();
    const t = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(t);
  }, [load]);

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button size="small" startIcon={<RefreshIcon />} onClick={load} data-testid="outbox-refresh">
          Refresh
        </Button>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      <Table size="small" data-testid={`outbox-${channel}`}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 180 }}>Time</TableCell>
            <TableCell sx={{ width: 220 }}>Recipient</TableCell>
            {channel === 'email' && <TableCell>Subject</TableCell>}
            <TableCell>{channel === 'call' ? 'Message' : 'Body'}</TableCell>
            <TableCell sx={{ width: 110 }}>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows?.length === 0 && (
            <TableRow>
              <TableCell colSpan={5}>Nothing sent yet.</TableCell>
            </TableRow>
          )}
          {rows?.map((r) => (
            <TableRow key={r.id} data-testid="outbox-row">
              <TableCell>{formatDateTime(r.createdAt)}</TableCell>
              <TableCell data-testid="outbox-recipient">{channel === 'email' ? r.recipient : formatPhone(r.recipient)}</TableCell>
              {channel === 'email' && <TableCell data-testid="outbox-subject">{r.subject}</TableCell>}
              <TableCell data-testid="outbox-body" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {r.body}
              </TableCell>
              <TableCell>{r.status}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
