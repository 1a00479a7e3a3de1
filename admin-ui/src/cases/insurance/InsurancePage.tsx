import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Link,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/Edit';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { Form, useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { MAX_INSURANCES, caseReference, type InsuranceInput, type InsuranceList, type InsuranceRecord, type PayerChoice } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { schemaValidator } from '../../common/schemaValidation';
import { useAppData } from '../../data/query';
import { isCodedError } from '../../data/codedError';
import { useConfirmation } from '../../common/ConfirmDialog';
import type { CaseDetails } from '../types';
import { InsuranceFields } from './InsuranceFields';
import { insuranceToInput } from './insuranceInput';
import { onSourceSide } from '../sourceSide';

const toPayload = (v: Partial<InsuranceInput>): InsuranceInput => ({
  payerId: v.payerId as number,
  insuranceId: v.insuranceId as string,
  groupId: v.groupId ?? null,
  relationToInsured: v.relationToInsured ?? null,
  responsibleParty: v.responsibleParty ?? null,
  verified: v.verified ?? true,
  patientPhone: v.patientPhone ?? null,
});
const validateInsurance = schemaValidator('insurance', (v: Partial<InsuranceInput>) => toPayload(v));

function SaveButtons({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose} data-testid="insurance-dialog-cancel">
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="insurance-dialog-save">
        Save
      </Button>
    </DialogActions>
  );
}

function InsuranceDialog(props: {
  caseId: number;
  editing: InsuranceRecord | null;
  payers: PayerChoice[];
  patient: CaseDetails['patient'] | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const dp = useAppData();
  const notify = useNotify();
  // New insurances default to verified in the form (spec 01 §4 Insurance states).
  const record: Record<string, unknown> = props.editing ? { ...insuranceToInput(props.editing) } : { verified: true, relationToInsured: null, responsibleParty: null };
  const submit = async (values: Record<string, unknown>) => {
    const payload = toPayload(values as Partial<InsuranceInput>);
    try {
      if (props.editing) await dp.updateInsurance(props.caseId, props.editing.id, payload);
      else await dp.addInsurance(props.caseId, payload);
      notify(props.editing ? 'Insurance updated' : 'Insurance added', { type: 'success' });
      props.onSaved();
    } catch (e) {
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <Dialog open onClose={props.onClose} maxWidth="md" fullWidth data-testid="insurance-dialog">
      <DialogTitle>{props.editing ? 'Edit insurance' : 'Add insurance'}</DialogTitle>
      <Form record={record} onSubmit={submit} validate={validateInsurance} sanitizeEmptyValues={false}>
        <DialogContent dividers>
          <InsuranceFields payers={props.payers} patient={props.patient} planLookup />
        </DialogContent>
        <SaveButtons onClose={props.onClose} />
      </Form>
    </Dialog>
  );
}

/** A card image: thumbnail when stored, and an upload button (JPEG or PNG) for editors. */
function CardImage(props: { caseId: number; insurance: InsuranceRecord; side: 'front' | 'back'; canEdit: boolean; onStored: () => void }) {
  const dp = useAppData();
  const notify = useNotify();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const stored = props.side === 'front' ? props.insurance.frontImage : props.insurance.backImage;
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    let made: string | null = null;
    if (stored)
      dp.insuranceImageUrl(props.caseId, props.insurance.id, props.side).then((u) => {
        made = u;
        if (!cancelled) setUrl(u);
      });
    else setUrl(null);
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [stored, props.caseId, props.insurance.id, props.side, version]);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      await dp.uploadInsuranceImage(props.caseId, props.insurance.id, props.side, file);
      notify('Card image saved', { type: 'success' });
      setVersion((v) => v + 1);
      props.onStored();
    } catch (e) {
      const msg = isCodedError(e) && e.fields[0] ? e.fields[0].message : (e as Error).message;
      notify(msg, { type: 'error' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Stack alignItems="center" spacing={0.5} data-testid={`card-${props.side}-${props.insurance.id}`}>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={`${props.side} of the card`} style={{ maxWidth: 96, maxHeight: 60, border: '1px solid #ccc' }} />
        </a>
      ) : (
        <Typography variant="caption" color="text.secondary">
          No {props.side}
        </Typography>
      )}
      {props.canEdit && (
        <>
          <input ref={input} type="file" accept="image/jpeg,image/png" hidden onChange={(e) => onFile(e.target.files?.[0])} data-testid={`card-${props.side}-input-${props.insurance.id}`} />
          <Button size="small" disabled={busy} onClick={() => input.current?.click()}>
            {busy ? <CircularProgress size={14} /> : stored ? `Replace ${props.side}` : `Upload ${props.side}`}
          </Button>
        </>
      )}
    </Stack>
  );
}

/**
 * /cases/{id}/insurances (spec 01 §2, §4, §5 Insurance; spec 02 §4): up to 3 insurances in order
 * (drag to reorder), verify / needs verification, the uninsured toggle that replaces the list,
 * card images, and the add/edit form (relation Self copies the patient).
 */
export function InsurancePage() {
  const dp = useAppData();
  const { id } = useParams();
  const caseId = Number(id);
  const { ability, context } = useSession();
  const notify = useNotify();
  const [caseRecord, setCaseRecord] = useState<CaseDetails | null>(null);
  const [data, setData] = useState<InsuranceList | null>(null);
  const [payers, setPayers] = useState<PayerChoice[]>([]);
  const [editing, setEditing] = useState<InsuranceRecord | 'new' | null>(null);
  const confirm = useConfirmation();
  const [dragId, setDragId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    dp.insurances(caseId).then(setData, (e) => setError((e as Error).message));
  }, [caseId, dp]);
  useEffect(() => {
    dp.caseDetails(caseId).then(setCaseRecord, (e) => setError((e as Error).message));
    dp.insurancePayers(caseId).then(setPayers, () => setPayers([]));
    load();
  }, [caseId, load, dp]);

  const closed = caseRecord?.status === 'Closed';
  const sourceSide = !!caseRecord && onSourceSide(context, caseRecord);
  const canEdit = ability.can('update', 'CaseInsurance') && !closed && sourceSide;
  const canUninsured = ability.can('update', 'CaseUninsured') && !closed && sourceSide;
  const insurances = data?.insurances ?? [];

  const act = async (what: () => Promise<unknown>, success: string) => {
    try {
      await what();
      notify(success, { type: 'success' });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      load();
    }
  };

  const reorder = (ids: number[]) => act(() => dp.reorderInsurances(caseId, ids), 'Insurance order saved');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= insurances.length || from === to) return;
    const ids = insurances.map((i) => i.id);
    const [moved] = ids.splice(from, 1);
    ids.splice(to, 0, moved);
    // Show the new order at once; the server's answer replaces it.
    setData((d) => (d ? { ...d, insurances: ids.map((x, i) => ({ ...d.insurances.find((r) => r.id === x)!, order: i })) } : d));
    void reorder(ids);
  };
  const onDrop = (e: DragEvent, targetIndex: number) => {
    e.preventDefault();
    const from = insurances.findIndex((i) => i.id === dragId);
    setDragId(null);
    if (from >= 0) move(from, targetIndex);
  };

  const toggleUninsured = (uninsured: boolean) => {
    if (uninsured && insurances.length)
      confirm.ask({
        title: 'Mark the patient uninsured',
        message: 'Marking the patient uninsured removes the insurances of this case. Continue?',
        onConfirm: () => act(() => dp.setUninsured(caseId, true), 'Patient marked uninsured'),
      });
    else void act(() => dp.setUninsured(caseId, uninsured), uninsured ? 'Patient marked uninsured' : 'Patient no longer marked uninsured');
  };

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!data || !caseRecord) return <CircularProgress sx={{ m: 4 }} />;

  return (
    <Box sx={{ p: 2 }} data-testid="insurance-page">
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h5">Insurance</Typography>
          <Typography variant="body2" color="text.secondary">
            <Link component={RouterLink} to={`/cases/${caseId}`}>
              Case {caseReference(caseId)}
            </Link>{' '}
            · {caseRecord.patient.firstName} {caseRecord.patient.lastName}
          </Typography>
        </Box>
        {canEdit && !data.uninsured && insurances.length < MAX_INSURANCES && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="insurance-add">
            Add insurance
          </Button>
        )}
      </Stack>
      {closed && (
        <Alert severity="info" sx={{ mb: 2 }}>
          The case is closed: its insurances are read-only.
        </Alert>
      )}
      <FormControlLabel
        control={<Switch checked={data.uninsured} disabled={!canUninsured} onChange={(e) => toggleUninsured(e.target.checked)} data-testid="uninsured-switch" />}
        label="Patient is uninsured"
      />
      <Card variant="outlined" sx={{ mt: 1 }}>
        <CardContent>
          {data.uninsured ? (
            <Alert severity="warning" data-testid="uninsured-alert">
              The patient is uninsured.
            </Alert>
          ) : insurances.length === 0 ? (
            <Typography color="text.secondary" data-testid="insurance-empty">
              No insurance provided.
            </Typography>
          ) : (
            <Table size="small" data-testid="insurance-table">
              <TableHead>
                <TableRow>
                  {canEdit && <TableCell />}
                  <TableCell>Order</TableCell>
                  <TableCell>Payer</TableCell>
                  <TableCell>Insurance ID</TableCell>
                  <TableCell>Group ID</TableCell>
                  <TableCell>Relation</TableCell>
                  <TableCell>Responsible party</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Card</TableCell>
                  {canEdit && <TableCell align="right">Actions</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {insurances.map((ins, index) => (
                  <TableRow
                    key={ins.id}
                    data-testid="insurance-row"
                    data-insurance-id={ins.id}
                    draggable={canEdit}
                    onDragStart={() => setDragId(ins.id)}
                    onDragOver={(e) => canEdit && e.preventDefault()}
                    onDrop={(e) => onDrop(e, index)}
                    sx={{ opacity: dragId === ins.id ? 0.5 : 1 }}
                  >
                    {canEdit && (
                      <TableCell sx={{ cursor: 'grab', whiteSpace: 'nowrap' }}>
                        <DragIndicatorIcon fontSize="small" data-testid="insurance-drag" />
                        <IconButton size="small" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label="Move up" data-testid="insurance-up">
                          <ArrowUpwardIcon fontSize="inherit" />
                        </IconButton>
                        <IconButton
                          size="small"
                          disabled={index === insurances.length - 1}
                          onClick={() => move(index, index + 1)}
                          aria-label="Move down"
                          data-testid="insurance-down"
                        >
                          <ArrowDownwardIcon fontSize="inherit" />
                        </IconButton>
                      </TableCell>
                    )}
                    <TableCell sx={{ textTransform: 'capitalize' }} data-testid="insurance-order">
                      {['primary', 'secondary', 'tertiary'][index]}
                    </TableCell>
                    <TableCell data-testid="insurance-payer-name">
                      {ins.payer.name}
                      {!ins.payer.isActive && ' (inactive)'}
                    </TableCell>
                    <TableCell data-testid="insurance-member-id">{ins.insuranceId}</TableCell>
                    <TableCell>{ins.groupId ?? '—'}</TableCell>
                    <TableCell>{ins.relationToInsured ?? '—'}</TableCell>
                    <TableCell>
                      {ins.responsibleParty && (ins.responsibleParty.firstName || ins.responsibleParty.lastName)
                        ? `${ins.responsibleParty.firstName ?? ''} ${ins.responsibleParty.lastName ?? ''}`.trim()
                        : '—'}
                    </TableCell>
                    <TableCell>
                      <Chip size="small" color={ins.verified ? 'success' : 'warning'} label={ins.verified ? 'Verified' : 'Unverified'} data-testid="insurance-status" />
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1}>
                        <CardImage caseId={caseId} insurance={ins} side="front" canEdit={canEdit} onStored={load} />
                        <CardImage caseId={caseId} insurance={ins} side="back" canEdit={canEdit} onStored={load} />
                      </Stack>
                    </TableCell>
                    {canEdit && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <Button
                          size="small"
                          onClick={() => act(() => dp.toggleInsuranceVerified(caseId, ins.id), ins.verified ? 'Insurance needs verification' : 'Insurance verified')}
                          data-testid="insurance-verify"
                        >
                          {ins.verified ? 'Needs verification' : 'Verify'}
                        </Button>
                        <Tooltip title="Edit">
                          <IconButton size="small" onClick={() => setEditing(ins)} data-testid="insurance-edit">
                            <EditIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title="Remove">
                          <IconButton
                            size="small"
                            onClick={() =>
                              confirm.ask({
                                title: 'Remove insurance',
                                message: `Remove the ${ins.payer.name} insurance ${ins.insuranceId}?`,
                                onConfirm: () => act(() => dp.removeInsurance(caseId, ins.id), 'Insurance removed'),
                              })
                            }
                            data-testid="insurance-remove"
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {!data.uninsured && insurances.length >= MAX_INSURANCES && canEdit && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="insurance-max">
              At most {MAX_INSURANCES} insurances per case.
            </Typography>
          )}
        </CardContent>
      </Card>
      {editing && (
        <InsuranceDialog
          caseId={caseId}
          editing={editing === 'new' ? null : editing}
          payers={payers}
          patient={caseRecord.patient}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      {confirm.dialog}
    </Box>
  );
}
