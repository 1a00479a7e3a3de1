import { useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  IconButton,
  InputLabel,
  ListItemText,
  MenuItem,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { CheckboxGroupInput, Form, SelectInput, useNotify } from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { AGE_BANDS, allDivisionsChosen, SIMPLE_LIST_PAGE_SIZE, type CredentialedProviderRecord, type ProviderChoice } from '@crisis/forms';
import { blockedActionDialog } from '../../common/blockedAction';
import { InfoDialog, type InfoDialogContent } from '../../common/InfoDialog';
import { schemaValidator } from '../../common/schemaValidation';
import { useDebounced } from '../../common/useDebounced';
import { isCodedError } from '../../data/codedError';
import { AcceptedPatientsInput } from '../divisions/AcceptedPatientsInput';
import { emptyAcceptedPatients } from '../divisions/divisionPayload';
import { ConfirmDialog } from './ConfirmDialog';
import { tabsApi, type Confirmation } from './tabsApi';
import { TablePager } from '../../common/ListPager';

interface FormValues {
  providerId: number | null;
  divisionsIds: number[];
  addToNewDivisions: boolean;
  acceptedPatients: any;
}

const toPayload = (v: FormValues) => ({
  providerId: v.providerId ?? null,
  divisionsIds: v.divisionsIds ?? [],
  addToNewDivisions: !!v.addToNewDivisions,
  acceptedPatients: v.acceptedPatients,
});
const validateProvider = schemaValidator('credentialedProvider', toPayload);

/** addToNewDivisions follows "all offered divisions chosen" (spec 03 §4). */
function AddToNewDivisionsSync({ offered }: { offered: number[] }) {
  const { setValue } = useFormContext();
  const chosen: number[] = useWatch({ name: 'divisionsIds' }) ?? [];
  const key = chosen.slice().sort().join(',');
  useEffect(() => {
    setValue('addToNewDivisions', allDivisionsChosen(chosen, offered), { shouldDirty: true });
  }, [key, offered.join(',')]);
  const on = useWatch({ name: 'addToNewDivisions' });
  return (
    <Typography variant="body2" color="text.secondary" data-testid="add-to-new-divisions">
      {on ? 'All divisions chosen: new Source divisions of this facility will get this provider too.' : 'New Source divisions will not get this provider.'}
    </Typography>
  );
}

function Buttons({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose} data-testid="cp-cancel">
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="cp-save">
        Save
      </Button>
    </DialogActions>
  );
}

function ProviderDialog({
  facilityId,
  editing,
  onClose,
  onSaved,
}: {
  facilityId: number;
  editing: CredentialedProviderRecord | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const notify = useNotify();
  const [providers, setProviders] = useState<ProviderChoice[] | null>(null);
  const [divisions, setDivisions] = useState<Array<{ id: number; name: string }> | null>(null);
  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
  useEffect(() => {
    tabsApi.availableProviders(facilityId, editing?.id ?? null).then(setProviders, (e) => notify((e as Error).message, { type: 'error' }));
    tabsApi.activeSourceDivisions(facilityId).then(setDivisions, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, editing, notify]);

  const offered = [...(divisions ?? [])];
  for (const d of editing?.divisions ?? []) if (!offered.some((o) => o.id === d.id)) offered.push(d);
  const record: FormValues = editing
    ? {
        providerId: editing.id,
        divisionsIds: editing.divisions.map((d) => d.id),
        addToNewDivisions: editing.addToNewDivisions,
        acceptedPatients: { ...emptyAcceptedPatients(), ...editing.acceptedPatients },
      }
    : { providerId: null, divisionsIds: [], addToNewDivisions: false, acceptedPatients: emptyAcceptedPatients() };

  const submit = async (values: Record<string, unknown>) => {
    const payload = toPayload(values as unknown as FormValues);
    for (const b of AGE_BANDS) if (payload.acceptedPatients?.[b] && !payload.acceptedPatients[b].isActive) payload.acceptedPatients[b] = { isActive: false, from: null, to: null };
    try {
      if (editing) await tabsApi.updateCredentialedProvider(facilityId, editing.id, payload);
      else await tabsApi.createCredentialedProvider(facilityId, payload);
      notify(editing ? 'Credentialed provider updated' : 'Credentialed provider added', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      const dialog = blockedActionDialog(e);
      if (dialog) return void setBlocked(dialog);
      if (isCodedError(e) && e.payload && Array.isArray(e.payload))
        return void setBlocked({ title: 'The provider has pending requests', message: 'These divisions have pending requests:', items: e.payload.map(String) });
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="cp-dialog">
      <DialogTitle>{editing ? 'Edit credentialed provider' : 'Add credentialed provider'}</DialogTitle>
      {!providers || !divisions ? (
        <DialogContent>
          <CircularProgress />
        </DialogContent>
      ) : (
        <Form record={record as any} onSubmit={submit} validate={validateProvider as any} mode="onTouched" reValidateMode="onChange">
          <DialogContent dividers>
            <SelectInput
              source="providerId"
              label="Provider"
              choices={providers.map((p) => ({ id: p.id, name: p.providerType ? `${p.fullName} (${p.providerType})` : p.fullName }))}
              disabled={!!editing}
              fullWidth
              data-testid="cp-provider"
            />
            {offered.length === 0 ? (
              <Typography color="error">The facility has no active Source divisions.</Typography>
            ) : (
              <CheckboxGroupInput source="divisionsIds" label="Divisions" choices={offered} row={false} data-testid="cp-divisions" />
            )}
            <AddToNewDivisionsSync offered={(divisions ?? []).map((d) => d.id)} />
            <AcceptedPatientsInput readOnly={false} />
          </DialogContent>
          <Buttons onClose={onClose} />
        </Form>
      )}
      <InfoDialog content={blocked} onClose={() => setBlocked(null)} />
    </Dialog>
  );
}

/** Credentialed providers tab (spec 03 §2): search by name and divisions; name, divisions, remove; add/edit modal. */
export function CredentialedProvidersTab({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const [q, setQ] = useState('');
  const [divisionFilter, setDivisionFilter] = useState<number[]>([]);
  const [divisions, setDivisions] = useState<Array<{ id: number; name: string }>>([]);
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ rows: CredentialedProviderRecord[]; total: number } | null>(null);
  const [open, setOpen] = useState<{ editing: CredentialedProviderRecord | null } | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
  const debounced = useDebounced(q);

  const load = useCallback(() => {
    const filter = { ...(debounced.trim() ? { q: debounced.trim() } : {}), ...(divisionFilter.length ? { divisionsIds: divisionFilter } : {}) };
    tabsApi.credentialedProviders(facilityId, filter, page, SIMPLE_LIST_PAGE_SIZE).then(setData, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, debounced, divisionFilter, page, notify]);
  useEffect(load, [load]);
  useEffect(() => {
    tabsApi.activeSourceDivisions(facilityId).then(setDivisions, () => undefined);
  }, [facilityId]);

  const remove = (r: CredentialedProviderRecord) =>
    setConfirmation({
      title: 'Remove credentialed provider',
      message: `Remove ${r.provider.fullName} from this facility?`,
      onConfirm: async () => {
        try {
          await tabsApi.removeCredentialedProvider(facilityId, r.id);
          notify('Credentialed provider removed', { type: 'success' });
          load();
        } catch (e) {
          const dialog = blockedActionDialog(e);
          if (dialog) return setBlocked(dialog);
          notify((e as Error).message, { type: 'error' });
        }
      },
    });

  return (
    <Box data-testid="credentialed-providers-tab">
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label="Search by name"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(0);
          }}
          slotProps={{ htmlInput: { 'data-testid': 'cp-search' } }}
        />
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id="cp-division-filter">Divisions</InputLabel>
          <Select
            labelId="cp-division-filter"
            label="Divisions"
            multiple
            value={divisionFilter}
            onChange={(e) => {
              setDivisionFilter(e.target.value as number[]);
              setPage(0);
            }}
            renderValue={(ids) => divisions.filter((d) => (ids as number[]).includes(d.id)).map((d) => d.name).join(', ')}
          >
            {divisions.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                <Checkbox checked={divisionFilter.includes(d.id)} />
                <ListItemText primary={d.name} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ editing: null })} data-testid="cp-add">
          Add provider
        </Button>
      </Box>
      <Table size="small" data-testid="cp-table">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Divisions</TableCell>
            <TableCell align="right">Remove</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!data && (
            <TableRow>
              <TableCell colSpan={3}>Loading…</TableCell>
            </TableRow>
          )}
          {data?.rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={3} data-testid="cp-empty">
                No credentialed providers
              </TableCell>
            </TableRow>
          )}
          {data?.rows.map((r) => (
            <TableRow key={r.id} hover sx={{ cursor: 'pointer' }} onClick={() => setOpen({ editing: r })} data-testid="cp-row">
              <TableCell>
                <Typography variant="body2" color="primary">
                  {r.provider.fullName}
                </Typography>
              </TableCell>
              <TableCell>{r.divisions.map((d) => d.name).join(', ')}</TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label="remove"
                  data-testid="cp-remove"
                  onClick={(e) => {
                    e.stopPropagation();
                    remove(r);
                  }}
                >
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePager total={data?.total} page={page} perPage={SIMPLE_LIST_PAGE_SIZE} onPageChange={setPage} />
      {open && (
        <ProviderDialog
          facilityId={facilityId}
          editing={open.editing}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            load();
          }}
        />
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      <InfoDialog content={blocked} onClose={() => setBlocked(null)} />
    </Box>
  );
}
