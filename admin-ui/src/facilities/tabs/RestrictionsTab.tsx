import { useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { Form, NumberInput, SelectInput, useNotify } from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import {
  enumLabel,
  secondsToTravelTime,
  STATE_RESTRICTION_TYPES,
  StateRestrictionType,
  travelTimeToSeconds,
  type StateRestrictionRecord,
} from '@crisis/forms';
import { schemaValidator } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { ConfirmDialog } from './ConfirmDialog';
import { tabsApi, type Confirmation } from './tabsApi';

interface FormValues {
  type: string | null;
  hours: number | null;
  minutes: number | null;
}
const num = (v: unknown) => (v === '' || v === undefined || v === null ? null : Number(v));
const toFormPayload = (v: FormValues) => ({ type: v.type ?? null, hours: num(v.hours), minutes: num(v.minutes) });
const validateRestriction = schemaValidator('stateRestrictionForm', toFormPayload);

/** Travel time as hours and minutes ("1 h 30 min"). */
function travel(seconds: number | null): string {
  if (seconds === null) return '—';
  const { hours, minutes } = secondsToTravelTime(seconds);
  return [hours ? `${hours} h` : '', minutes || !hours ? `${minutes} min` : ''].filter(Boolean).join(' ');
}

function TravelTimeFields() {
  const type = useWatch({ name: 'type' });
  if (type !== StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime) return null;
  return (
    <Box sx={{ display: 'flex', gap: 2 }}>
      <NumberInput source="hours" label="Hours *" min={0} slotProps={{ htmlInput: { 'data-testid': 'sr-hours' } } as any} />
      <NumberInput source="minutes" label="Minutes *" min={0} slotProps={{ htmlInput: { 'data-testid': 'sr-minutes' } } as any} />
    </Box>
  );
}

function Buttons({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose}>Cancel</Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="sr-save">
        Save
      </Button>
    </DialogActions>
  );
}

function RestrictionDialog({ facilityId, row, onClose, onSaved }: { facilityId: number; row: StateRestrictionRecord; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const record: FormValues = { type: row.type, ...secondsToTravelTime(row.withinTravelTime) };
  const submit = async (values: Record<string, unknown>) => {
    const v = toFormPayload(values as unknown as FormValues);
    const within = v.type === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime ? travelTimeToSeconds(v.hours ?? 0, v.minutes ?? 0) : null;
    try {
      await tabsApi.saveStateRestriction(facilityId, row.state, { type: v.type as string, withinTravelTime: within });
      notify('State restriction updated', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.fields.length) return { type: e.fields.map((f) => f.message).join('; ') };
      notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="sr-dialog">
      <DialogTitle>{row.stateName}</DialogTitle>
      <Form record={record as any} onSubmit={submit} validate={validateRestriction as any} mode="onTouched" reValidateMode="onChange">
        <DialogContent dividers>
          <SelectInput source="type" label="Type" choices={STATE_RESTRICTION_TYPES.map((t) => ({ id: t, name: enumLabel(t) }))} fullWidth />
          <TravelTimeFields />
        </DialogContent>
        <Buttons onClose={onClose} />
      </Form>
    </Dialog>
  );
}

/** Restrictions tab (spec 03 §2): populate-out-of-state checkbox (confirmed, auto-submitted) and the states table. */
export function RestrictionsTab({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const [populate, setPopulate] = useState<boolean | null>(null);
  const [rows, setRows] = useState<StateRestrictionRecord[] | null>(null);
  const [editing, setEditing] = useState<StateRestrictionRecord | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const load = useCallback(() => {
    tabsApi.stateRestrictions(facilityId).then(setRows, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, notify]);
  useEffect(() => {
    load();
    tabsApi.populateOutOfState(facilityId).then((r) => setPopulate(r.populateOutOfStateFacilities), () => undefined);
  }, [facilityId, load]);

  const askPopulate = (value: boolean) =>
    setConfirmation({
      title: 'Populate out-of-state facilities',
      message: value ? 'Include facilities of other states when populating?' : 'Stop including facilities of other states when populating?',
      onConfirm: async () => {
        try {
          const r = await tabsApi.setPopulateOutOfState(facilityId, value);
          setPopulate(r.populateOutOfStateFacilities);
          notify('Updated', { type: 'success' });
        } catch (e) {
          notify((e as Error).message, { type: 'error' });
        }
      },
    });

  return (
    <Box data-testid="restrictions-tab">
      <FormControlLabel
        label="Populate out-of-state facilities"
        disabled={populate === null}
        control={
          <Checkbox
            checked={!!populate}
            onChange={(e) => askPopulate(e.target.checked)}
            slotProps={{ input: { 'data-testid': 'populate-out-of-state' } as any }}
          />
        }
      />
      <Table size="small" data-testid="sr-table">
        <TableHead>
          <TableRow>
            <TableCell>Closest travel time</TableCell>
            <TableCell>State</TableCell>
            <TableCell>Type</TableCell>
            <TableCell align="right">Edit</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows && (
            <TableRow>
              <TableCell colSpan={4}>Loading…</TableCell>
            </TableRow>
          )}
          {rows?.map((r) => (
            <TableRow key={r.state} data-testid={`sr-row-${r.state}`}>
              <TableCell>{travel(r.closestTravelTime)}</TableCell>
              <TableCell>{r.stateName}</TableCell>
              <TableCell>
                {enumLabel(r.type)}
                {r.type === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime && r.withinTravelTime !== null ? ` (${travel(r.withinTravelTime)})` : ''}
              </TableCell>
              <TableCell align="right">
                <IconButton aria-label="edit" data-testid={`sr-edit-${r.state}`} onClick={() => setEditing(r)}>
                  <EditIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {editing && (
        <RestrictionDialog
          facilityId={facilityId}
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Box>
  );
}
