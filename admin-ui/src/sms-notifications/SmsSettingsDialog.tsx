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
import { smsHoursLimit, smsNotificationsStartRules, type FieldError, type SmsNotificationsStartInput, type SmsReceiveType } from '@crisis/forms';
import { useSession } from '../auth/session';
import { validatePayload } from '../common/schemaValidation';
import { useAppData } from '../data/query';

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
    const body: SmsNotificationsStartInput = {
      phone: phone.trim(),
      type,
      receiveNextNHours: type === 'ForTheNextNumberOfHours' ? (hours.trim() === '' ? null : Number(hours)) : null,
    };
    const found = [...validatePayload('smsNotificationsStart', body), ...smsNotificationsStartRules(body, context.role)];
    setErrors(found);
    if (found.length) return;
    setBusy(true);
    try {
      await dp.smsStart(body);
      notify('SMS notifications started', { type: 'success' });
      await onChanged();
      onClose();
    } catch (e: any) {
      if (e?.fields?.length) setErrors(e.fields);
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
