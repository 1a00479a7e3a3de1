import { useState } from 'react';
import { useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import {
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { ErrorCode, CaseStatus, canCancelRequest, canEditRequest, formatDateTime, isActiveRequestStatus } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { isCodedError } from '../../data/codedError';
import type { CaseCardProps, CaseRequest } from '../types';
import type { ProviderOption } from '@crisis/forms/core';
import { keys, useAppData, useAppQuery } from '../../data/query';
import { enumLabel } from './caseLabels';
import { FormDialog, NoteField, ReasonDialog, schemaProblems } from './dialogs';
import { useCaseErrors } from './useCaseErrors';
import { EvaluationPdfButton } from '../../evaluations/EvaluationPage';
import { VideoMeetingControls } from '../../online-meetings/VideoMeetingControls';

type Bio = NonNullable<CaseRequest['evaluationProvider']>;

/** The requests card (spec 01 §2, §4 Request lifecycle): table, create / edit / cancel, the provider's actions. */
export function RequestsCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const notify = useNotify();
  const dp = useAppData();
  const navigate = useNavigate();
  const errors = useCaseErrors(onChanged);
  const [editing, setEditing] = useState<CaseRequest | 'new' | null>(null);
  const [cancelling, setCancelling] = useState<CaseRequest | null>(null);
  const [notReady, setNotReady] = useState<CaseRequest | null>(null);
  const [bio, setBio] = useState<Bio | null>(null);
  const [nearby, setNearby] = useState(false);
  const closed = caseRecord.status === CaseStatus.Closed;
  const role = context.role;
  const isProvider = ability.can('access', 'ProviderCases');
  const canCreate = !closed && ability.can('create', 'Request');
  // ITP staff read the provider's evaluation (spec 02 §6; the screen is read-only for them).
  const canViewEvaluation = ability.can('update', 'CaseStatus');
  // A referring facility's user reads the requests with fewer columns and no actions (spec 01 §2, §6
  // "Requests view: every role"): whoever may neither create requests nor evaluate them.
  const readOnly = !ability.can('create', 'Request') && !isProvider;
  const evaluationPath = (r: CaseRequest) => `/cases/${caseRecord.id}/requests/${r.id}/evaluation`;

  const openCreate = () => {
    // One active request at a time: say so with its current status (spec 01 §8).
    if (caseRecord.activeRequest)
      return errors.show({ title: 'The case has an active request', message: `A request is already active (status: ${caseRecord.activeRequest.status}).` });
    setEditing('new');
  };
  // Start or open (spec 01 §4): a Pending request is taken in progress, then the evaluation started, first.
  const startEvaluation = async (r: CaseRequest) => {
    try {
      if (r.status === 'Pending') await dp.requestInProgress(r.id);
      if (!r.evaluationStarted) await dp.requestStartEvaluation(r.id);
      navigate(evaluationPath(r));
    } catch (e) {
      errors.handle(e);
    }
  };

  return (
    <Card variant="outlined" data-testid="requests-card">
      <CardHeader
        title="Requests"
        titleTypographyProps={{ variant: 'h6' }}
        action={
          canCreate && (
            <Button size="small" variant="outlined" onClick={openCreate} data-testid="request-new">
              New request
            </Button>
          )
        }
      />
      <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
        {caseRecord.requests.length === 0 ? (
          <Typography color="text.secondary">No requests.</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Type</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Provider</TableCell>
                <TableCell>Created</TableCell>
                {!readOnly && <TableCell>Notes</TableCell>}
                {!readOnly && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {caseRecord.requests.map((r) => {
                const mine = isProvider && r.evaluationProviderId === context.id;
                return [
                  <TableRow key={r.id} data-testid={`request-row-${r.id}`}>
                    <TableCell>{enumLabel(r.type)}</TableCell>
                    <TableCell data-testid="request-status" sx={{ whiteSpace: 'nowrap' }}>
                      {enumLabel(r.status)}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {r.evaluationProvider ? (
                        <Link component="button" onClick={() => setBio(r.evaluationProvider)} data-testid="request-provider">
                          {r.evaluationProvider.firstName} {r.evaluationProvider.lastName}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.createdAt)}</TableCell>
                    {!readOnly && <TableCell sx={{ maxWidth: 280 }}>
                      {r.note && <Typography variant="body2">{r.note}</Typography>}
                      {r.facilityNote && <Typography variant="caption" display="block">Facility ({r.facilityNote.authorName}): {r.facilityNote.value}</Typography>}
                      {r.itpNote && !isProvider && <Typography variant="caption" display="block">ITP ({r.itpNote.authorName}): {r.itpNote.value}</Typography>}
                      {r.reason && <Typography variant="caption" display="block" color="text.secondary">Reason: {r.reason}</Typography>}
                    </TableCell>}
                    {!readOnly && <TableCell sx={{ whiteSpace: 'nowrap' }} align="right">
                      {!closed && canEditRequest(role, r) && (
                        <Button size="small" onClick={() => setEditing(r)} data-testid="request-edit">
                          Edit
                        </Button>
                      )}
                      {!closed && canCancelRequest(role, r) && (
                        <Button size="small" color="error" onClick={() => setCancelling(r)} data-testid="request-cancel">
                          Cancel
                        </Button>
                      )}
                      {!closed && mine && isActiveRequestStatus(r.status) && (
                        <Button size="small" onClick={() => setNearby(true)} data-testid="request-inpatient-nearby">
                          Inpatient facilities nearby
                        </Button>
                      )}
                      {!closed && mine && r.status === 'InProgress' && (
                        <Button size="small" onClick={() => setNotReady(r)} data-testid="request-not-ready">
                          Not ready
                        </Button>
                      )}
                      {!closed && mine && (r.status === 'InProgress' || r.status === 'Pending') && (
                        <Button size="small" variant="contained" onClick={() => startEvaluation(r)} data-testid="request-evaluation">
                          {r.evaluationStarted ? 'Open evaluation' : 'Start evaluation'}
                        </Button>
                      )}
                      {mine && r.status === 'Completed' && (
                        <Button size="small" onClick={() => navigate(evaluationPath(r))} data-testid="request-evaluation-open">
                          Open evaluation
                        </Button>
                      )}
                      {!isProvider && canViewEvaluation && r.hasEvaluation && (
                        <Button size="small" onClick={() => navigate(evaluationPath(r))} data-testid="request-evaluation-view">
                          View evaluation
                        </Button>
                      )}
                      {r.hasEvaluation && <EvaluationPdfButton caseId={caseRecord.id} requestId={r.id} />}
                    </TableCell>}
                  </TableRow>,
                  // The video meeting of a request that has a provider, or had a meeting (spec 02 §2 "Video evaluation").
                  !readOnly && (r.onlineMeeting || (r.evaluationProviderId && isActiveRequestStatus(r.status) && !closed)) && ability.can('read', 'OnlineMeeting') && (
                    <TableRow key={`${r.id}-video`} data-testid={`request-video-${r.id}`}>
                      <TableCell colSpan={6} sx={{ borderTop: 0, pt: 0 }}>
                        <VideoMeetingControls request={r} />
                      </TableCell>
                    </TableRow>
                  ),
                ];
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
      {editing && (
        <RequestDialog
          caseRecord={caseRecord}
          request={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(created) => {
            notify(created ? 'Request created' : 'Request updated', { type: 'success' });
            setEditing(null);
            onChanged();
          }}
          onError={(e) => {
            const fields = errors.handle(e);
            if (!fields) setEditing(null);
            return fields;
          }}
        />
      )}
      {nearby && <InpatientNearbyDialog caseId={caseRecord.id} onClose={() => setNearby(false)} />}
      <CancelRequestDialog
        requestId={cancelling?.id ?? null}
        onClose={() => setCancelling(null)}
        onCancelled={onChanged}
        onError={errors.handle}
      />
      <ReasonDialog
        open={!!notReady}
        title="Not ready for evaluation"
        submitLabel="Send"
        testId="request-not-ready-dialog"
        onClose={() => setNotReady(null)}
        onSubmit={async (reason) => {
          try {
            await dp.requestNotReady(notReady!.id, reason);
            setNotReady(null);
            notify('The request was marked as not ready for evaluation', { type: 'success' });
            navigate('/dashboard');
          } catch (e) {
            setNotReady(null);
            errors.handle(e);
          }
        }}
      />
      <Dialog open={!!bio} onClose={() => setBio(null)} data-testid="provider-biography">
        <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Avatar src={bio?.avatar ?? undefined}>{bio?.firstName?.[0]}</Avatar>
          {bio?.firstName} {bio?.lastName}
        </DialogTitle>
        <DialogContent>
          {bio?.type && <Typography variant="subtitle2">{bio.type}</Typography>}
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{bio?.biography || 'No biography.'}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setBio(null)}>Close</Button>
        </DialogActions>
      </Dialog>
      {errors.dialog}
    </Card>
  );
}

/** Cancel with a reason (spec 01 §4, irreversible): from the requests card and from the ITP queue. */
export function CancelRequestDialog(props: { requestId: number | null; onClose: () => void; onCancelled: () => void; onError: (e: unknown) => void }) {
  const dp = useAppData();
  const notify = useNotify();
  return (
    <ReasonDialog
      open={props.requestId !== null}
      title="Cancel request"
      submitLabel="Cancel request"
      testId="request-cancel-dialog"
      onClose={props.onClose}
      onSubmit={async (reason) => {
        try {
          await dp.requestCancel(props.requestId!, reason);
          notify('Request cancelled', { type: 'success' });
          props.onClose();
          props.onCancelled();
        } catch (e) {
          props.onClose();
          props.onError(e);
        }
      }}
    />
  );
}

/** What the request dialog reads of the case: the case page's record or a queue row. */
export interface RequestDialogCase {
  id: number;
  sourceDivision: { id: number };
  patient: { dateOfBirth: string };
}

/** New request / edit request: type (from GET requests/types), provider (credentialed, accepting the age), note. */
export function RequestDialog({
  caseRecord,
  request,
  onClose,
  onSaved,
  onError,
}: {
  caseRecord: RequestDialogCase;
  request: Pick<CaseRequest, 'id' | 'type' | 'evaluationProviderId' | 'note'> | null;
  onClose: () => void;
  onSaved: (created: boolean) => void;
  onError: (e: unknown) => Record<string, string> | null;
}) {
  const dp = useAppData();
  const loadedTypes = useAppQuery(keys.case(caseRecord.id, 'requestTypes'), (d) => d.caseRequestTypes(caseRecord.id)).data;
  const types = loadedTypes ? (request && !loadedTypes.includes(request.type) ? [request.type, ...loadedTypes] : loadedTypes) : request ? [request.type] : [];
  const providers: ProviderOption[] =
    useAppQuery(['providers', caseRecord.sourceDivision.id, caseRecord.patient.dateOfBirth], (d) =>
      d.caseProviders(caseRecord.sourceDivision.id, caseRecord.patient.dateOfBirth),
    ).data ?? [];
  const [type, setType] = useState(request?.type ?? '');
  const [providerId, setProviderId] = useState<number | ''>(request?.evaluationProviderId ?? '');
  const [note, setNote] = useState(request?.note ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const { ability } = useSession();
  const isItp = ability.can('update', 'CaseStatus');
  const submit = async () => {
    const body = { type: type || null, evaluationProviderId: type === 'PlacementOnly' || providerId === '' ? null : providerId, note };
    const problems = await schemaProblems(request ? 'requestUpdate' : 'requestCreate', body);
    if (isItp && type && type !== 'PlacementOnly' && providerId === '') problems.evaluationProviderId ??= 'This field is required';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      if (request) await dp.caseUpdateRequest(caseRecord.id, request.id, body);
      else await dp.caseCreateRequest(caseRecord.id, body);
      onSaved(!request);
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.CaseHasActiveRequest) {
        onError(e);
        return;
      }
      const fields = onError(e);
      if (fields) setErrors(fields);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog open title={request ? 'Edit request' : 'New request'} testId="request-dialog" busy={busy} onClose={onClose} onSubmit={submit}>
      <TextField
        select
        label="Request type"
        required
        value={type}
        onChange={(e) => setType(e.target.value)}
        error={!!errors.type}
        helperText={errors.type}
        SelectProps={{ SelectDisplayProps: { 'data-testid': 'request-type' } as any }}
      >
        {types.map((t) => (
          <MenuItem key={t} value={t}>
            {enumLabel(t)}
          </MenuItem>
        ))}
      </TextField>
      {type !== 'PlacementOnly' && (
        <TextField
          select
          label="Evaluation provider"
          required={isItp}
          value={providerId}
          onChange={(e) => setProviderId(e.target.value === '' ? '' : Number(e.target.value))}
          error={!!errors.evaluationProviderId}
          helperText={errors.evaluationProviderId ?? (providers.length === 0 ? 'No credentialed provider accepts this patient' : undefined)}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'request-provider-select' } as any }}
        >
          {!isItp && <MenuItem value="">Any provider</MenuItem>}
          {providers.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.firstName} {p.lastName}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box>
        <NoteField label="Note" value={note} onChange={setNote} error={errors.note} testId="request-note" />
      </Box>
    </FormDialog>
  );
}

export const hasActiveRequest = (requests: CaseRequest[]) => requests.some((r) => isActiveRequestStatus(r.status));

/**
 * Inpatient facilities nearby (spec 01 §2 modal, §6 "providers handle … inpatient facility list …
 * only when assigned"): the active mental-health inpatient divisions nearest the case's source
 * facility, with their distance in miles, nearest first.
 */
function InpatientNearbyDialog({ caseId, onClose }: { caseId: number; onClose: () => void }) {
  const { data, failure } = useAppQuery(keys.case(caseId, 'inpatient-nearby'), (d) => d.inpatientDivisionsNearby(caseId));
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="inpatient-nearby-dialog">
      <DialogTitle>Inpatient facilities nearby</DialogTitle>
      <DialogContent>
        {failure ? (
          <Typography color="error">{isCodedError(failure) ? failure.message : 'The list could not be loaded'}</Typography>
        ) : !data ? (
          <Typography color="text.secondary">Loading…</Typography>
        ) : data.length === 0 ? (
          <Typography color="text.secondary">No inpatient facility found.</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Facility / division</TableCell>
                <TableCell>City</TableCell>
                <TableCell align="right">Proximity</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((d) => (
                <TableRow key={d.divisionId} data-testid="inpatient-nearby-row">
                  <TableCell>
                    {d.facilityName} / {d.divisionName}
                  </TableCell>
                  <TableCell>{[d.city, d.state].filter(Boolean).join(', ')}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {d.proximityMiles.toFixed(1)} mi
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
