import { useEffect, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
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
  Chip,
  FormControlLabel,
  TextField,
  Tooltip,
} from '@mui/material';
import { ErrorCode, formatDateTime, type CallsCardRow, type LiveEventName } from '@crisis/forms/core';
import { isCodedError } from '../../data/codedError';
import { keys, useAppData, useAppQuery } from '../../data/query';
import { SimpleTable } from '../../common/SimpleTable';
import { useDebounced } from '../../common/useDebounced';
import { useLiveEvent } from '../../live/useLiveEvent';
import { announce } from '../../common/LiveAnnouncer';

const PAGE_SIZE = 6;
const LIVE_EVENTS: LiveEventName[] = ['calls.updated', 'division.claimed', 'division.released', 'callback.due'];
const CIRCLE_COLORS: Record<CallsCardRow['circle'], string> = { expired: '#d32f2f', claimed: '#ed6c02', active: '#2e7d32' };
const CIRCLE_LABELS: Record<CallsCardRow['circle'], string> = {
  expired: 'The callback time has passed',
  claimed: 'Claimed',
  active: 'Active',
};

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
  const [claimedBy, setClaimedBy] = useState<{ divisionId: number; name: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const dp = useAppData();
  const filter = { withinTwoHours, ...(name ? { facilityName: name } : {}) };
  const list = useAppQuery([...keys.calls(), filter, page], (d) => d.callsCard(filter, page, PAGE_SIZE), { placeholderData: keepPreviousData });
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const { error, reload: load } = list;
  useEffect(() => setPage(0), [withinTwoHours, name]);
  // The calls room is joined by the server on connection: no join here.
  useLiveEvent(null, LIVE_EVENTS, load);
  // What changes by itself is said through the live region: a claim taken or given up elsewhere, a callback due.
  const divisionLabel = (data: unknown) => {
    const row = rows.find((r) => r.divisionId === Number((data as { divisionId?: unknown } | null)?.divisionId));
    return row ? `${row.facilityName} / ${row.divisionName}` : 'A division';
  };
  useLiveEvent(null, 'division.claimed', (data) => {
    const by = (data as { claimedByName?: string } | null)?.claimedByName;
    announce(`Calls: ${divisionLabel(data)} claimed${by ? ` by ${by}` : ''}`);
  });
  useLiveEvent(null, 'division.released', (data) => announce(`Calls: ${divisionLabel(data)} released`));
  useLiveEvent(null, 'callback.due', (data) => announce(`Calls: a callback is due at ${divisionLabel(data)}`));

  /** Claims the division (and opens its call log); `resume` resumes its on-hold tasks first. */
  const claim = async (row: CallsCardRow, resume = false) => {
    if (busy) return;
    setBusy(row.divisionId);
    setClaimedBy(null);
    try {
      const claimed = await dp.claimDivision(row.divisionId, resume);
      navigate(`/call-log/claim/${claimed.claimId}`);
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.DivisionAlreadyClaimed) {
        const by = (e.payload as { claimedByName?: string } | null)?.claimedByName ?? 'another user';
        setClaimedBy({ divisionId: row.divisionId, name: by });
        load();
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
        <SimpleTable<CallsCardRow>
          columns={[
            {
              cell: { padding: 'checkbox' },
              render: (row) => (
                <Tooltip title={CIRCLE_LABELS[row.circle]}>
                  <Box
                    role="img"
                    data-testid="calls-card-circle"
                    sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: CIRCLE_COLORS[row.circle], mx: 'auto' }}
                  />
                </Tooltip>
              ),
            },
            { label: 'Tasks', render: (row) => row.taskCount },
            { label: 'Facility', render: (row) => row.facilityName },
            { label: 'Division', render: (row) => row.divisionName },
            { label: 'Preferred', render: (row) => row.preferredCount },
            {
              label: 'Recent callback',
              render: (row) => (
                <>
                  {row.recentCallbackAt ? formatDateTime(row.recentCallbackAt) : row.uncalledCount ? 'Not called yet' : ''}
                  {row.holdUntil && (
                    <Tooltip title={`Bulk ${row.holdResult ?? 'hold'}: every case of the division, new ones too, is held until then`}>
                      <Chip
                        size="small"
                        color="warning"
                        label={`On hold until ${formatDateTime(row.holdUntil)}`}
                        sx={{ ml: 1 }}
                        data-testid="calls-card-hold"
                      />
                    </Tooltip>
                  )}
                </>
              ),
            },
            { label: 'Claimed by', cell: { 'data-testid': 'calls-card-claim' }, render: (row) => (row.claim ? `Claimed by ${row.claim.claimedByName}` : '') },
            {
              align: 'right',
              render: (row) => (
                <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
                  {row.holdUntil && (
                    <Tooltip title="End the hold: its tasks are due now, then claim the division">
                      <span>
                        <Button
                          size="small"
                          variant="outlined"
                          color="warning"
                          disabled={busy === row.divisionId}
                          onClick={(e) => {
                            e.stopPropagation();
                            void claim(row, true);
                          }}
                          data-testid="calls-card-resume-button"
                        >
                          Resume
                        </Button>
                      </span>
                    </Tooltip>
                  )}
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
                </Box>
              ),
            },
          ]}
          rows={rows}
          rowKey={(row) => row.divisionId}
          rowProps={(row) => ({
            hover: true,
            onClick: () => void claim(row),
            sx: { cursor: 'pointer' },
            'data-testid': 'calls-card-row',
            'data-division-id': row.divisionId,
            'data-circle': row.circle,
            'data-on-hold': row.holdUntil ? 'true' : 'false',
          })}
          emptyText={`No calls to make${withinTwoHours ? ' within two hours' : ''}.`}
          emptyCell={{ sx: { color: 'text.secondary' }, 'data-testid': 'calls-card-empty' }}
        />
        <TablePager total={total} page={page} perPage={PAGE_SIZE} onPageChange={setPage} />
      </CardContent>
    </Card>
  );
}
