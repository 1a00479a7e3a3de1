import { Checkbox, FormControlLabel, FormHelperText, Box } from '@mui/material';
import { useInput } from 'react-admin';
import { errorText } from './schemaValidation';

export interface CheckboxInputProps {
  source: string;
  label: string;
  disabled?: boolean;
  /** Called after the value changed by a user action (for dependent-field resets). */
  onUserChange?: (checked: boolean) => void;
  testId?: string;
  helperText?: string;
}

/** A boolean as a checkbox (the spec's forms use checkboxes, not switches). */
export function CheckboxInput({ source, label, disabled, onUserChange, testId, helperText }: CheckboxInputProps) {
  const { field, fieldState, isRequired: _r } = useInput({ source, defaultValue: false });
  const error = fieldState.invalid && fieldState.isTouched ? errorText(fieldState.error) : undefined;
  return (
    <Box>
      <FormControlLabel
        label={label}
        disabled={disabled}
        control={
          <Checkbox
            checked={!!field.value}
            name={field.name}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(e) => {
              field.onChange(e.target.checked);
              onUserChange?.(e.target.checked);
            }}
            slotProps={{ input: { 'data-testid': testId ?? `checkbox-${source}` } as any }}
          />
        }
      />
      {(error || helperText) && <FormHelperText error={!!error} sx={{ mt: -0.5, ml: 4 }}>{error ?? helperText}</FormHelperText>}
    </Box>
  );
}
