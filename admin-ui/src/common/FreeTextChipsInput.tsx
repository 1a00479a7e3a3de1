import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput } from 'react-admin';

/** Free-text values as chips (type, press Enter). Used for the facility list's cities filter. */
export function FreeTextChipsInput({
  source,
  label,
  testId,
  minWidth = 220,
}: {
  source: string;
  label: string;
  testId?: string;
  alwaysOn?: boolean;
  minWidth?: number;
}) {
  const { field } = useInput({ source, defaultValue: [] });
  const value: string[] = Array.isArray(field.value) ? field.value : [];
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={value}
      onChange={(_e, next) => field.onChange((next as string[]).map((v) => v.trim()).filter(Boolean))}
      renderValue={(values, getItemProps) =>
        values.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size="small"
          variant="outlined"
          placeholder={value.length ? '' : 'Type and press Enter'}
          inputProps={{ ...params.inputProps, 'data-testid': testId }}
        />
      )}
      sx={{ minWidth, mb: '4px' }}
    />
  );
}
