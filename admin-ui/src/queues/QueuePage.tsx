import { Box, Button, Link as MuiLink, Stack, TextField, Tooltip, Typography } from '@mui/material';
import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import { useEffect, useRef, useState } from 'react';
import { Datagrid, FunctionField, List, TopToolbar, useListContext, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  REQUEST_QUEUE_DEFAULT_SORT,
  REQUEST_QUEUE_PAGE_SIZE,
  ageInYears,
  canCancelRequest,
  canEditRequest,
  formatPhone,
  type RequestQueueItem,
  type RequestQueueKind,
} from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { FoundTotal } from '../common/ReferenceList';
import { useDebounced } from '../common/useDebounced';
import { humanize } from '../common/humanize';
import { queueRoom, useLiveEvent } from '../live/useLiveEvent';
import { dob, elapsed, patientName } from '../cases/list/caseListParts';
import { CancelRequestDialog, RequestDialog } from '../cases/page/RequestsCard';
import { useCaseErrors } from '../cases/page/useCaseErrors';

/** The patient's name opens the case (spec 02 §2 "patient link"). */
function PatientLink({ row, withDob = false }: { row: RequestQueueItem; withDob?: boolean }) {
  return (
    <Box>
      <MuiLink component={RouterLink} to={`/cases/${row.caseId}`} onClick={(e) => e.stopPropagation()} data-testid="queue-patient">
        {patientName(row)}
      </MuiLink>
      {withDob && <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{dob(row.patient.dateOfBirth)}</Box>}
    </Box>
  );
}

/** Search (patient name or #reference) and, while the page is open, a reload as requests change anywhere (the queue room). */
function QueueToolbar() {
  const { filterValues, setFilters, refetch } = useListContext();
  const [text, setText] = useState<string>(filterValues.q ?? '');
  const debounced = useDebounced(text, 400);
  useEffect(() => {
    if ((filterValues.q ?? '') !== debounced) setFilters(debounced.trim() ? { q: debounced.trim() } : {}, undefined, false);
  }, [debounced]);
  // Several commands in a burst reload once.
  const pending = useRef<number | undefined>(undefined);
  useLiveEvent(queueRoom, 'queue.changed', () => {
    window.clearTimeout(pending.current);
    pending.current = window.setTimeout(() => void refetch(), 300);
  });
  useEffect(() => () => window.clearTimeout(pending.current), []);
  return (
    <TopToolbar sx={{ alignItems: 'center', justifyContent: 'space-between', width: '100%' }}>
      <TextField
        size="small"
        label="Search patient or #case"
        value={text}
        onChange={(e) => setText(e.target.value)}
        inputProps={{ 'data-testid': 'queue-search' }}
        sx={{ minWidth: 280 }}
      />
      <FoundTotal testId="queue-total" />
    </TopToolbar>
  );
}

function QueueShell({ kind, children }: { kind: RequestQueueKind; children: React.ReactNode }) {
  return (
    <List
      resource={`requests/${kind}-queue`}
      disableAuthentication
      // The page's parameters live in the store (storeKey), not in the address: a live reload or a
      // late search must never pull the user back here after she opened a case.
      disableSyncWithLocation
      title=" "
      actions={<QueueToolbar />}
      sort={{ field: REQUEST_QUEUE_DEFAULT_SORT[0], order: REQUEST_QUEUE_DEFAULT_SORT[1] }}
      perPage={REQUEST_QUEUE_PAGE_SIZE[kind]}
      pagination={<ListPager rowsPerPageOptions={[REQUEST_QUEUE_PAGE_SIZE[kind]]} />}
      empty={false}
      storeKey={`${kind}-queue.listParams`}
    >
      <Datagrid
        bulkActionButtons={false}
        rowClick={(_id, _resource, record) => `/cases/${(record as RequestQueueItem).caseId}`}
        data-testid="queue-table"
        sx={{ '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } }}
      >
        {children}
      </Datagrid>
    </List>
  );
}

/** Edit and cancel of a row's request (spec 01 §4 rules, the case page's dialogs). */
function ItpQueueActions({ row }: { row: RequestQueueItem }) {
  const { context } = useSession();
  const notify = useNotify();
  const { refetch } = useListContext();
  const errors = useCaseErrors(() => void refetch());
  const [editing, setEditing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const request = { id: row.requestId, type: row.type, status: row.requestStatus, evaluationStarted: row.evaluationStarted, evaluationProviderId: row.evaluationProvider?.id ?? null, note: row.note };
  const caseRecord = { id: row.caseId, sourceDivision: { id: row.sourceDivision.id }, patient: { dateOfBirth: row.patient.dateOfBirth } };
  return (
    <Stack direction="row" spacing={1} justifyContent="flex-end" onClick={(e) => e.stopPropagation()}>
      {canEditRequest(context.role, request) && (
        <Button size="small" onClick={() => setEditing(true)} data-testid="queue-edit">
          Edit
        </Button>
      )}
      {canCancelRequest(context.role, request) && (
        <Button size="small" color="error" onClick={() => setCancelling(true)} data-testid="queue-cancel">
          Cancel
        </Button>
      )}
      {editing && (
        <RequestDialog
          caseRecord={caseRecord}
          request={request}
          onClose={() => setEditing(false)}
          onSaved={() => {
            notify('Request updated', { type: 'success' });
            setEditing(false);
            void refetch();
          }}
          onError={(e) => {
            const fields = errors.handle(e);
            if (!fields) setEditing(false);
            return fields;
          }}
        />
      )}
      <CancelRequestDialog
        requestId={cancelling ? row.requestId : null}
        onClose={() => setCancelling(false)}
        onCancelled={() => void refetch()}
        onError={errors.handle}
      />
      {errors.dialog}
    </Stack>
  );
}

/** ITP admin and user: every active request, longest waiting first (spec 02 §2 "ITP queue"). */
function ItpQueue() {
  return (
    <QueueShell kind="itp">
      <FunctionField
        label=""
        sortable={false}
        render={(r: RequestQueueItem) =>
          r.unreadAssignment ? (
            <Tooltip title="The provider was notified and has not opened the case yet">
              <NotificationImportantIcon color="warning" fontSize="small" data-testid="queue-unread-alert" aria-label="Unread assignment" />
            </Tooltip>
          ) : null
        }
      />
      <FunctionField label="Patient" source="patient" sortBy="patient" render={(r: RequestQueueItem) => <PatientLink row={r} />} />
      <FunctionField label="Type" source="type" sortBy="type" render={(r: RequestQueueItem) => humanize(r.type)} />
      <FunctionField
        label="Provider"
        source="provider"
        sortBy="provider"
        render={(r: RequestQueueItem) =>
          r.evaluationProvider ? (
            `${r.evaluationProvider.firstName} ${r.evaluationProvider.lastName}`
          ) : (
            <Typography component="span" variant="body2" color="error" data-testid="queue-no-provider">
              No provider
            </Typography>
          )
        }
      />
      <FunctionField label="Status" sortable={false} render={(r: RequestQueueItem) => `${humanize(r.requestStatus)} · ${r.caseStatusLabel}`} />
      <FunctionField label="Time elapsed" source="timeElapsed" sortBy="timeElapsed" render={(r: RequestQueueItem) => <span data-testid="queue-elapsed">{elapsed(r)}</span>} />
      <FunctionField label="" sortable={false} render={(r: RequestQueueItem) => <ItpQueueActions row={r} />} />
    </QueueShell>
  );
}

/** Providers: the requests assigned to them (spec 02 §2 "Provider queue"). */
function ProviderQueue() {
  return (
    <QueueShell kind="provider">
      <FunctionField
        label="Gender and age"
        sortable={false}
        render={(r: RequestQueueItem) => `${humanize(r.patient.gender) || '—'}, ${ageInYears(r.patient.dateOfBirth)}`}
      />
      <FunctionField label="Patient" source="patient" sortBy="patient" render={(r: RequestQueueItem) => <PatientLink row={r} withDob />} />
      <FunctionField label="Request type" source="type" sortBy="type" render={(r: RequestQueueItem) => humanize(r.type)} />
      <FunctionField
        label="Facility"
        source="sourceFacility"
        sortBy="sourceFacility"
        render={(r: RequestQueueItem) => (
          <Box>
            <Box>{r.sourceFacility.name}</Box>
            <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{r.sourceDivision.name}</Box>
          </Box>
        )}
      />
      <FunctionField
        label="Contact"
        sortable={false}
        render={(r: RequestQueueItem) => (
          <Box data-testid="queue-contact">
            {r.rnCaringForPatient && <Box>{r.rnCaringForPatient}</Box>}
            <Box sx={{ color: 'text.secondary', fontSize: '0.8rem', whiteSpace: 'nowrap' }}>{r.contactPhoneNumber ? formatPhone(r.contactPhoneNumber) : '—'}</Box>
          </Box>
        )}
      />
      <FunctionField label="Time elapsed" source="timeElapsed" sortBy="timeElapsed" render={(r: RequestQueueItem) => <span data-testid="queue-elapsed">{elapsed(r)}</span>} />
    </QueueShell>
  );
}

/** /queue: the ITP queue for partner staff, the provider queue for providers (the route the spec leaves open). */
export function QueuePage() {
  const { ability } = useSession();
  const itp = ability.can('access', 'ItpQueue');
  return (
    <Box>
      <PageTitle title={itp ? 'Request queue' : 'My queue'} />
      {itp ? <ItpQueue /> : <ProviderQueue />}
    </Box>
  );
}
