import { useCallback, useEffect, useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { useNotify } from 'react-admin';
import { PREFERRED_FACILITIES_PAGE_SIZE, REQUIRED_MESSAGE, type FacilityLookup, type PreferredFacilityRecord } from '@crisis/forms';
import { validatePayload } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { ConfirmDialog } from './ConfirmDialog';
import { tabsApi, type Confirmation } from './tabsApi';
import { TablePager } from '../../common/ListPager';

const label = (f: FacilityLookup) => `${f.name} (${f.address.city}, ${f.address.state})`;

function AddPreferredDialog({ facilityId, onClose, onSaved }: { facilityId: number; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const [choices, setChoices] = useState<FacilityLookup[] | null>(null);
  const [value, setValue] = useState<FacilityLookup | null>(null);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    tabsApi.availablePreferred(facilityId).then(setChoices, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, notify]);
  const errors = validatePayload('preferredFacility', { facilityId: value?.id ?? null });
  const error = serverError ?? (touched && errors.length ? (errors[0].key === 'required' ? REQUIRED_MESSAGE : errors[0].message) : null);

  const save = async () => {
    setTouched(true);
    if (errors.length || !value) return;
    setSaving(true);
    try {
      await tabsApi.addPreferred(facilityId, value.id);
      notify('Preferred facility added', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.fields.length) setServerError(e.fields[0].message);
      else notify((e as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="pf-dialog">
      <DialogTitle>Add preferred facility</DialogTitle>
      <DialogContent dividers>
        {!choices ? (
          <CircularProgress />
        ) : (
          <Autocomplete
            options={choices}
            value={value}
            getOptionLabel={label}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            onChange={(_e, v) => {
              setValue(v);
              setServerError(null);
              setTouched(true);
            }}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Facility *"
                error={!!error}
                helperText={error ?? 'Facilities with an active Referring division'}
                onBlur={() => setTouched(true)}
                slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'pf-facility' } }}
              />
            )}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="pf-save">
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Preferred facilities tab (spec 03 §2): a table paged at 10, an add modal, removal with confirmation. */
export function PreferredFacilitiesTab({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ rows: PreferredFacilityRecord[]; total: number } | null>(null);
  const [adding, setAdding] = useState(false);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const load = useCallback(() => {
    tabsApi.preferredFacilities(facilityId, page, PREFERRED_FACILITIES_PAGE_SIZE).then(setData, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, page, notify]);
  useEffect(load, [load]);

  const remove = (r: PreferredFacilityRecord) =>
    setConfirmation({
      title: 'Remove preferred facility',
      message: `Remove ${r.name} from the preferred facilities?`,
      onConfirm: async () => {
        try {
          await tabsApi.removePreferred(facilityId, r.id);
          notify('Preferred facility removed', { type: 'success' });
          if (data && data.rows.length === 1 && page > 0) setPage(page - 1);
          else load();
        } catch (e) {
          notify((e as Error).message, { type: 'error' });
        }
      },
    });

  return (
    <Box data-testid="preferred-facilities-tab">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} data-testid="pf-add">
          Add preferred facility
        </Button>
      </Box>
      <Table size="small" data-testid="pf-table">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>City, state</TableCell>
            <TableCell>Divisions</TableCell>
            <TableCell align="right">Remove</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!data && (
            <TableRow>
              <TableCell colSpan={4}>Loading…</TableCell>
            </TableRow>
          )}
          {data?.rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={4} data-testid="pf-empty">
                No preferred facilities
              </TableCell>
            </TableRow>
          )}
          {data?.rows.map((r) => (
            <TableRow key={r.id} data-testid="pf-row">
              <TableCell>{r.name}</TableCell>
              <TableCell>
                {r.address.city}, {r.address.state}
              </TableCell>
              <TableCell>{r.divisions.map((d) => d.name).join(', ')}</TableCell>
              <TableCell align="right">
                <IconButton aria-label="remove" data-testid="pf-remove" onClick={() => remove(r)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePager total={data?.total} page={page} perPage={PREFERRED_FACILITIES_PAGE_SIZE} onPageChange={setPage} />
      {adding && (
        <AddPreferredDialog
          facilityId={facilityId}
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            load();
          }}
        />
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Box>
  );
}
