import { TextField } from '@mui/material';

/**
 * A value shown but not editable, and not registered as an input: the form keeps (and submits)
 * the record's value. react-hook-form drops the values of *disabled* inputs on submit, so fields
 * that are fixed but still part of the payload (a division's type) use this instead.
 */
export function LockedField({ label, value, testId, minWidth = 240 }: { label: string; value: string; testId: string; minWidth?: number }) {
  return (
    <TextField
      label={label}
      value={value}
      disabled
      size="small"
      margin="dense"
      sx={{ minWidth, mb: 2.5 }}
      slotProps={{ htmlInput: { 'data-testid': testId, readOnly: true } }}
    />
  );
}
