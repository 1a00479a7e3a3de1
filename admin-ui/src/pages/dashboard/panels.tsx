import { Suspense, lazy, useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, Link as MuiLink, Stack, TextField, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, useListContext, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  CASE_SEARCH_DEFAULT_SORT,
  CASE_SEARCH_PAGE_SIZE,
  FINALIZED_DEFAULT_SORT,
  FINALIZED_PAGE_SIZE,
  TEXT_MEDIUM,
  caseReference,
  durationTwoUnits,
  type CaseDetails,
  type CaseSearchItem,
  type FinalizedCaseItem,
} from '@crisis/forms/core';
import { ListPager } from '../../common/ListPager';
import { useDebounced } from '../../common/useDebounced';
import { humanize } from '../../common/humanize';
import { patientName } from '../../cases/list/caseListParts';
import { useAppData, useAppQuery } from '../../data/query';

// Opened from a row's action only: loads then (with the case cards' form helpers), not with the dashboard.
const FeedbackDialog = lazy(() => import('../../cases/cards/FeedbackDialog').then((m) => ({ default: m.FeedbackDialog })));

/** Feedback from the table: the case page's dialog, on the case loaded when the button is pressed. */
function FeedbackButton({ row }: { row: FinalizedCaseItem }) {
  const dp = useAppData();
  const notify = useNotify();
  const { refetch } = useListContext();
  const [caseRecord, setCaseRecord] = useState<CaseDetails | null>(null);
  const open = () =>
    dp.caseDetails(row.id).then(setCaseRecord, () => notify('Could not load the case', { type: 'error' }));
  return (
    <>
      <Button size="small" onClick={open} data-testid="finalized-feedback">
        {row.feedbackGiven ? 'Edit feedback' : 'Feedback'}
      </Button>
      {caseRecord && (
        <Suspense fallback={null}>
          <FeedbackDialog caseRecord={caseRecord} open onClose={() => setCaseRecord(null)} onSaved={() => void refetch()} />
        </Suspense>
      )}
    </>
  );
}

/** Source-type users' finalized cases (spec 02 §2, §6: the patient links to the case for facility admins only). */
export function FinalizedCasesTable({ linkPatient }: { linkPatient: boolean }) {
  return (
    <Box sx={{ mt: 2 }} data-testid="dashboard-finalized">
      <Typography variant="h6" sx={{ mb: 1 }}>
        Finalized cases
      </Typography>
      <List
        resource="cases/finalized"
        disableAuthentication
        disableSyncWithLocation
        storeKey="finalized.listParams"
        title=" "
        actions={false}
        sort={{ field: FINALIZED_DEFAULT_SORT[0], order: FINALIZED_DEFAULT_SORT[1] }}
        perPage={FINALIZED_PAGE_SIZE}
        pagination={<ListPager rowsPerPageOptions={[FINALIZED_PAGE_SIZE]} />}
        empty={<Typography color="text.secondary">No case closed in the last days.</Typography>}
      >
        <Datagrid bulkActionButtons={false} rowClick={false} data-testid="finalized-table">
          <FunctionField<FinalizedCaseItem>
            label="Patient"
            sortBy="patient"
            render={(r) =>
              linkPatient ? (
                <MuiLink component={RouterLink} to={`/cases/${r.id}`} data-testid="finalized-patient">
                  {patientName(r)}
                </MuiLink>
              ) : (
                <span data-testid="finalized-patient">{patientName(r)}</span>
              )
            }
          />
          <FunctionField<FinalizedCaseItem> label="Status" sortBy="status" render={(r) => r.statusLabel} />
          <FunctionField<FinalizedCaseItem> label="Total case time" sortBy="totalCaseTime" render={(r) => durationTwoUnits(r.totalCaseTimeMs)} />
          <FunctionField<FinalizedCaseItem> label="Outcome" sortBy="outcome" render={(r) => (r.outcomeType ? humanize(r.outcomeType) : '—')} />
          <FunctionField<FinalizedCaseItem> label="" render={(r) => <FeedbackButton row={r} />} />
        </Datagrid>
      </List>
    </Box>
  );
}

function SearchResults() {
  const { filterValues } = useListContext();
  if (!filterValues.q) return null;
  return (
    <Datagrid bulkActionButtons={false} rowClick={false} data-testid="dashboard-search-results">
      <FunctionField<CaseSearchItem>
        label="Case"
        render={(r) => (
          <MuiLink component={RouterLink} to={`/cases/${r.id}`} data-testid="dashboard-search-case">
            {caseReference(r.id)}
          </MuiLink>
        )}
      />
      <FunctionField<CaseSearchItem> label="Patient" render={(r) => patientName(r)} />
      <FunctionField<CaseSearchItem> label="Source facility" render={(r) => r.sourceFacility.name} />
      <FunctionField<CaseSearchItem> label="Status" render={(r) => r.statusLabel} />
    </Datagrid>
  );
}

function SearchField() {
  const { filterValues, setFilters } = useListContext();
  const [text, setText] = useState<string>(filterValues.q ?? '');
  const debounced = useDebounced(text, 400);
  useEffect(() => {
    if ((filterValues.q ?? '') !== debounced.trim()) setFilters(debounced.trim() ? { q: debounced.trim() } : {}, undefined, false);
  }, [debounced]);
  return (
    <TextField
      size="small"
      label="Search cases by patient or #case"
      value={text}
      onChange={(e) => setText(e.target.value)}
      inputProps={{ maxLength: TEXT_MEDIUM, 'data-testid': 'dashboard-search' }}
      sx={{ minWidth: 320, my: 1 }}
    />
  );
}

/** The partner users' search box (spec 02 §2): open and closed cases by patient name or reference. */
export function CaseSearchBox() {
  return (
    <Box sx={{ mt: 2 }} data-testid="dashboard-search-box">
      <List
        resource="dashboard/search"
        disableAuthentication
        disableSyncWithLocation
        storeKey="dashboard-search.listParams"
        title=" "
        actions={<SearchField />}
        sort={{ field: CASE_SEARCH_DEFAULT_SORT[0], order: CASE_SEARCH_DEFAULT_SORT[1] }}
        perPage={CASE_SEARCH_PAGE_SIZE}
        pagination={<ListPager rowsPerPageOptions={[CASE_SEARCH_PAGE_SIZE]} />}
        empty={false}
      >
        <SearchResults />
      </List>
    </Box>
  );
}

const Count = ({ label, value, testId }: { label: string; value: number; testId: string }) => (
  <Box>
    <Typography variant="h4" data-testid={testId}>
      {value}
    </Typography>
    <Typography color="text.secondary">{label}</Typography>
  </Box>
);

/** The group users' panel (spec 02 §2, §6): the group, its past cases over three windows, the past-cases link. */
export function GroupPanelCard() {
  const { data, error } = useAppQuery(['dashboard', 'group'], (dp) => dp.groupPanel());
  return (
    <Card sx={{ mt: 2 }} data-testid="dashboard-group">
      <CardContent>
        {error && <Typography color="error">{error}</Typography>}
        {data && (
          <>
            <Typography variant="h6" data-testid="group-name">
              {data.group.name}
            </Typography>
            <Typography color="text.secondary" data-testid="group-area">
              {data.group.states.join(', ')} · {data.group.counties.join(', ') || 'no counties'}
            </Typography>
            <Stack direction="row" spacing={4} sx={{ my: 2 }}>
              <Count label="Past cases today" value={data.pastCases.today} testId="group-today" />
              <Count label="Last 7 days" value={data.pastCases.last7Days} testId="group-7" />
              <Count label="Last 30 days" value={data.pastCases.last30Days} testId="group-30" />
            </Stack>
            <Button component={RouterLink} to="/cases/past" variant="outlined" data-testid="group-past-cases">
              Past cases
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The provider's panel (spec 02 §2): his queue, his evaluations completed today, links to Queue and Cases. */
export function ProviderPanelCard() {
  const { data, error } = useAppQuery(['dashboard', 'provider'], (dp) => dp.providerPanel());
  return (
    <Card sx={{ mt: 2 }} data-testid="dashboard-provider">
      <CardContent>
        {error && <Typography color="error">{error}</Typography>}
        {data && (
          <Stack direction="row" spacing={4} alignItems="center">
            <Count label="Requests in your queue" value={data.queueCount} testId="provider-queue-count" />
            <Count label="Evaluations completed today" value={data.completedToday} testId="provider-completed-today" />
            <Button component={RouterLink} to="/queue" variant="outlined">
              Queue
            </Button>
            <Button component={RouterLink} to="/cases" variant="outlined">
              Cases
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
