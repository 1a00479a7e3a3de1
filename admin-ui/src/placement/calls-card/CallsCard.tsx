import { useCallback, useEffect, useRef, useState } from 'react';
import { TablePager } from '../../common/ListPager';
import { useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  FormControlLabel,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
} from '@mui/material';
import { ErrorCode, formatDateTime } from '@crisis/forms';
import { isCodedError } from '../../data/codedError';
import { httpClient } from '../../data/httpClient';
import { useDebounced } from '../../common/useDebounced';
import { liveSocket } from '../../live/liveConnection';
import { callLogApi, type CallsCardRow } from '../call-log/callLogApi';

const PAGE_SIZE = 6;
const LIVE_EVENTS = ['calls.updated', 'division.claimed', 'division.released', 'callback.due'];
const CIRCLE_COLORS: Record<CallsCardRow['circle'], string> = { expired: '#d32f2f', claimed: '#ed6c02', active: '#2e7d32' };
const CIRCLE_LABELS: Record<CallsCardRow['circle'], string> = {
  expired: 'The callback time has passed',
  claimed: 'Claimed',
  active: 'Active',
};

/** Calls the handler on every calls-room event (the socket may connect after the card mounts). */
function useCallsLive(onEvent: () => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let attached: ReturnType<typeof liveSocket>;
    const fire = () => handler.current();
    const attach = () => {
      const socket = liveSocket();
      if (!socket || socket === attached) return;
      attached = socket;
      LIVE_EVENTS.forEach((e) => socket.on(e, fire));
    };
    attach();
    const timer = window.setInterval(attach, 2000);
    return () => {
      window.clearInterval(timer);
      LIVE_EVENTS.forEach((e) => attached?.off(e, fire));
    };
  }, []);
}

/**
 * The calls card of the ITP dashboard (spec 02 §2 "Calls card", §4 circle): one row per division
 * with tasks being placed. A click claims the division and opens its call log.
 */
export function CallsCard() {
  const notify = useNotify();
  const navigate = useNavigate();
  const [withinTwoHours, setWithinTwoHours] = useState(true);
  const [facilityName, setFacilityName] = useState('');
  const name = useDebounced(facilityName.trim(), 400);
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<CallsCardRow[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [claimedBy, setClaimedBy] = useState<{ divisionId: number; name: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(async () => {
    const filter = { withinTwoHours, ...(name ? { facilityName: name } : {}) };
    const start = page * PAGE_SIZE;
    const qs = new URLSearchParams({
      filter: JSON.stringify(filter),
      range: JSON.stringify([start, start + PAGE_SIZE - 1]),
      sort: JSON.stringify(['recentCallbackAt', 'ASC']),
    });
    try {
      const res = await httpClient(`/api/placement-tasks/division/group?${qs}`);
      setRows(res.json as CallsCardRow[]);
      const range = res.headers.get('Content-Range');
      setTotal(range ? Number(range.split('/').pop()) || 0 : (res.json as unknown[]).length);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [withinTwoHours, name, page]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => setPage(0), [withinTwoHours, name]);
  useCallsLive(() => void load());

  const claim = async (row: CallsCardRow) => {
    if (busy) return;
    setBusy(row.divisionId);
    setClaimedBy(null);
    try {
      const claimed = await callLogApi.claim(row.divisionId);
      navigate(`/call-log/claim/${claimed.claimId}`);
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.DivisionAlreadyClaimed) {
        const by = (e.payload as { claimedByName?: string } | null)?.claimedByName ?? 'another user';
        setClaimedBy({ divisionId: row.divisionId, name: by });
        void load();
      } else notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card data-testid="calls-card" sx={{ mt: 2 }}>
      <CardHeader
        title="Calls"
        titleTypographyProps={{ variant: 'h6' }}
        action={
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
            <TextField
              size="small"
              label="Facility name"
              value={facilityName}
              onChange={(e) => setFacilityName(e.target.value)}
              inputProps={{ 'data-testid': 'calls-card-facility-filter', maxLength: 255 }}
            />
            <FormControlLabel
              control={<Checkbox checked={withinTwoHours} onChange={(e) => setWithinTwoHours(e.target.checked)} inputProps={{ 'data-testid': 'calls-card-within-two-hours' } as any} />}
              label="Within two hours"
            />
          </Box>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {error && <Alert severity="error">{error}</Alert>}
        {claimedBy && (
          <Alert severity="warning" data-testid="calls-card-already-claimed" onClose={() => setClaimedBy(null)} sx={{ mb: 1 }}>
            Already claimed by {claimedBy.name}
          </Alert>
        )}
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>Tasks</TableCell>
              <TableCell>Facility</TableCell>
              <TableCell>Division</TableCell>
              <TableCell>Preferred</TableCell>
              <TableCell>Recent callback</TableCell>
              <TableCell>Claimed by</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={row.divisionId}
                hover
                onClick={() => void claim(row)}
                sx={{ cursor: 'pointer' }}
                data-testid="calls-card-row"
                data-division-id={row.divisionId}
                data-circle={row.circle}
              >
                <TableCell padding="checkbox">
                  <Tooltip title={CIRCLE_LABELS[row.circle]}>
                    <Box
                      data-testid="calls-card-circle"
                      sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: CIRCLE_COLORS[row.circle], mx: 'auto' }}
                    />
                  </Tooltip>
                </TableCell>
                <TableCell>{row.taskCount}</TableCell>
                <TableCell>{row.facilityName}</TableCell>
                <TableCell>{row.divisionName}</TableCell>
                <TableCell>{row.preferredCount}</TableCell>
                <TableCell>{row.recentCallbackAt ? formatDateTime(row.recentCallbackAt) : row.uncalledCount ? 'Not called yet' : ''}</TableCell>
                <TableCell data-testid="calls-card-claim">{row.claim ? `Claimed by ${row.claim.claimedByName}` : ''}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={busy === row.divisionId}
                    onClick={(e) => {
                      e.stopPropagation();
                      void claim(row);
                    }}
                    data-testid="calls-card-claim-button"
                  >
                    Claim
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {!rows.length && (
              <TableRow>
                <TableCell colSpan={8} sx={{ color: 'text.secondary' }} data-testid="calls-card-empty">
                  No calls to make{withinTwoHours ? ' within two hours' : ''}.
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
        <TablePager total={total} page={page} perPage={PAGE_SIZE} onPageChange={setPage} />
      </CardContent>
    </Card>
  );
}
