import { useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput } from 'react-admin';
import { useSuggestions } from './useSuggestions';

/** Where the suggestions come from: a URL for the typed text (once it has `min` characters) and the value of each row. */
export interface ChipSuggestions<T> {
  min: number;
  url: (q: string) => string;
  valueOf: (row: T) => string;
  /** Rows to leave out (e.g. of states not chosen). */
  keep?: (row: T) => boolean;
}

/**
 * Free-text values as chips (type, press Enter). With `suggest`, typing offers matching values
 * (the facility list's cities filter, the group's counties: spec 03 §2, §5 autocomplete); a typed
 * value that was not offered still counts.
 */
export function FreeTextChipsInput<T = unknown>({
  source,
  label,
  testId,
  minWidth = 220,
  suggest,
}: {
  source: string;
  label: string;
  testId?: string;
  alwaysOn?: boolean;
  minWidth?: number;
  suggest?: ChipSuggestions<T>;
}) {
  const { field } = useInput({ source, defaultValue: [] });
  const value: string[] = Array.isArray(field.value) ? field.value : [];
  const [text, setText] = useState('');
  const { options: rows, loading } = useSuggestions<T>(text, suggest?.min ?? 1, suggest?.url ?? (() => ''), !!suggest);
  const offered = suggest
    ? [...new Set(rows.filter((r) => !suggest.keep || suggest.keep(r)).map(suggest.valueOf))].filter((v) => !value.includes(v))
    : [];
  return (
    <Autocomplete
      multiple
      freeSolo
      options={offered}
      filterOptions={(o) => o}
      loading={loading}
      value={value}
      inputValue={text}
      onInputChange={(_e, next, reason) => setText(reason === 'reset' ? '' : next)}
      onChange={(_e, next) => {
        field.onChange([...new Set((next as string[]).map((v) => v.trim()).filter(Boolean))]);
        setText('');
      }}
      renderValue={(values, getItemProps) =>
        values.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li key={key} {...rest} data-testid={testId ? `${testId}-option` : undefined}>
            {option}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size="small"
          variant="outlined"
          placeholder={value.length ? '' : suggest ? 'Type to search' : 'Type and press Enter'}
          inputProps={{ ...params.inputProps, 'data-testid': testId }}
        />
      )}
      sx={{ minWidth, mb: '4px' }}
    />
  );
}
