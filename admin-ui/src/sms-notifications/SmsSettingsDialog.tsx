import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useNotify } from 'react-admin';
import { smsHoursLimit, smsNotificationsStartRules, smsWindowEnd, type FieldError, type SmsNotificationsStartInput, type SmsReceiveType } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { validatePayload } from '../common/schemaValidation';
import { useAppData } from '../data/query';

/** The hours field's own rule (03 §5): a positive whole number at most the role's limit. */
function hoursProblemOf(type: SmsReceiveType, hours: string, limit: number): FieldError | null {
  if (type === 'Always') return null;
  if (hours.trim() === '') return { field: 'receiveNextNHours', key: 'required', message: 'This field is required' };
  const n = Number(hours);
  if (!Number.isInteger(n) || n < 1) return { field: 'receiveNextNHours', key: 'minimum', message: 'Must be a positive whole number' };
  if (n > limit) return { field: 'receiveNextNHours', key: 'maximum', message: `Must be at most ${limit} hours` };
  return null;
}

/** A refusal of the window's end shows on the hours field the person typed. */
const asHoursError = (e: FieldError): FieldError => (e.field === 'receiveUntil' ? { ...e, field: 'receiveNextNHours' } : e);

/** Spec 03 §5 SMS settings: phone required and valid; always, or for the next N hours (at most the role limit). */
export function SmsSettingsDialog({ open, onClose, onChanged }: { open: boolean; onClose: () => void; onChanged: () => Promise<void> }) {
  const { context } = useSession();
  const notify = useNotify();
  const dp = useAppData();
  const limit = smsHoursLimit(context.role);
  const [phone, setPhone] = useState(context.smsNotifications?.phone ?? '');
  const [type, setType] = useState<SmsReceiveType>('ForTheNextNumberOfHours');
  const [hours, setHours] = useState<string>(String(limit));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const errorOf = (f: string) => errors.find((e) => e.field === f)?.message;

  const submit = async () => {
    // The form asks for hours (spec 03 §5); the API takes the window's end (03 §7).
    const hoursProblem = hoursProblemOf(type, hours, limit);
    const body: SmsNotificationsStartInput = {
      phone: phone.trim(),
      alwaysReceive: type === 'Always',
      receiveUntil: type === 'Always' || hoursProblem ? null : smsWindowEnd(Number(hours)),
    };
    const found = hoursProblem ? [...validatePayload('smsNotificationsStart', body).filter((e) => e.field !== 'receiveUntil'), hoursProblem] : [
      ...validatePayload('smsNotificationsStart', body),
      ...smsNotificationsStartRules(body, context.role),
    ].map(asHoursError);
    setErrors(found);
    if (found.length) return;
    setBusy(true);
    try {
      await dp.smsStart(body);
      notify('SMS notifications started', { type: 'success' });
      await onChanged();
      onClose();
    } catch (e: any) {
      if (e?.fields?.length) setErrors(e.fields.map(asHoursError));
      notify(e?.message ?? 'Starting SMS notifications failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} data-testid="sms-dialog">
      <DialogTitle>SMS notification settings</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 360, pt: '8px !important' }}>
        <TextField
          label="Phone"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          error={!!errorOf('phone')}
          helperText={errorOf('phone') ?? '(xxx) xxx-xxxx'}
          slotProps={{ htmlInput: { 'data-testid': 'sms-phone' } }}
        />
        <RadioGroup value={type} onChange={(e) => setType(e.target.value as SmsReceiveType)}>
          <FormControlLabel value="Always" control={<Radio slotProps={{ input: { 'data-testid': 'sms-type-always' } as object }} />} label="Always" />
          <FormControlLabel
            value="ForTheNextNumberOfHours"
            control={<Radio slotProps={{ input: { 'data-testid': 'sms-type-hours' } as object }} />}
            label="For the next number of hours"
          />
        </RadioGroup>
        {type === 'ForTheNextNumberOfHours' && (
          <TextField
            label={`Hours (1–${limit})`}
            type="number"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            error={!!errorOf('receiveNextNHours')}
            helperText={errorOf('receiveNextNHours') ?? ' '}
            slotProps={{ htmlInput: { min: 1, max: limit, step: 1, 'data-testid': 'sms-hours' } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="sms-start">
          Start
        </Button>
      </DialogActions>
    </Dialog>
  );
}
