import { useRef, useState, type ReactNode } from 'react';
import { Autocomplete, Box, TextField } from '@mui/material';
import { InputHelperText, SelectInput, TextInput, useInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  CITY_AUTOCOMPLETE_MIN_CHARS,
  COUNTY_AUTOCOMPLETE_MIN_CHARS,
  STREET_AUTOCOMPLETE_MIN_CHARS,
  US_STATES,
  ZIP_LOOKUP_PATTERN,
  type CountySuggestion,
  type StreetSuggestion,
  type ZipInfo,
} from '@crisis/forms/core';
import { api } from '../data/httpClient';
import { useSuggestions } from './useSuggestions';
import { ZipInput } from './ZipInput';

const STATE_CHOICES = US_STATES.map((s) => ({ id: s.code, name: `${s.name} (${s.code})` }));
const ADDRESS_API = '/api/address';


type Field = 'street' | 'apartment' | 'city' | 'state' | 'county' | 'zip';

export interface AddressFieldsProps {
  /** Prefix of the address sources: `address` → address.streetLine, address.city, … */
  source: string;
  /** Where the form keeps coordinates (`geoPosition` → geoPosition.latitude/longitude); none for patients. */
  geoSource?: string;
  /** The "Set geo position manually" flag: when on, the look-ups leave the coordinates alone. */
  manualGeoSource?: string;
  disabled?: boolean;
  /** data-testid of each field (kept from the forms this component replaced). */
  testIds?: Partial<Record<Field, string>>;
  /** Where the test ids go: on the <input> itself (facility form) or on the field's root (patient forms). */
  testIdOn?: 'input' | 'root';
  labels?: Partial<Record<Field, string>>;
}

const DEFAULT_LABELS: Record<Field, string> = {
  street: 'Street *',
  apartment: 'Apartment / unit',
  city: 'City *',
  state: 'State *',
  county: 'County',
  zip: 'Zip *',
};

const testIdProps = (id: string | undefined, on: 'input' | 'root') =>
  !id ? {} : on === 'input' ? { slotProps: { htmlInput: { 'data-testid': id } } } : { 'data-testid': id };

/**
 * A free-text react-admin input with MUI Autocomplete suggestions: typing writes the text to the
 * form (so it works without picking anything); picking a suggestion calls `onPick`.
 */
function SuggestInput<T>(props: {
  source: string;
  label: string;
  disabled?: boolean;
  testId?: string;
  testIdOn: 'input' | 'root';
  min: number;
  url: (q: string) => string;
  optionLabel: (o: T) => string;
  renderOption?: (o: T) => ReactNode;
  /** The text the field keeps when an option is picked. */
  valueOf: (o: T) => string;
  onPick?: (o: T) => void;
  flex?: number;
}) {
  const { field, fieldState, isRequired } = useInput({ source: props.source });
  const text = (field.value as string | null) ?? '';
  const [focused, setFocused] = useState(false);
  const { options, loading } = useSuggestions<T>(text, props.min, props.url, focused && !props.disabled);
  const error = fieldState.error;
  return (
    <Autocomplete<T, false, false, true>
      freeSolo
      disabled={props.disabled}
      options={options}
      loading={loading}
      filterOptions={(o) => o}
      getOptionLabel={(o) => (typeof o === 'string' ? o : props.optionLabel(o))}
      renderOption={(liProps, o) => {
        const { key, ...rest } = liProps as typeof liProps & { key: string };
        return (
          <li key={key} {...rest}>
            {props.renderOption ? props.renderOption(o) : props.optionLabel(o)}
          </li>
        );
      }}
      inputValue={text}
      value={null}
      onInputChange={(_e, value, reason) => {
        if (reason === 'input' || reason === 'clear') field.onChange(value);
      }}
      onChange={(_e, option) => {
        if (option && typeof option !== 'string') {
          field.onChange(props.valueOf(option));
          props.onPick?.(option);
        }
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        field.onBlur();
      }}
      sx={{ flex: props.flex ?? 1, minWidth: 0 }}
      renderInput={(params) => {
        const rootTestId = props.testId && props.testIdOn === 'root' ? { 'data-testid': props.testId } : {};
        const inputTestId = props.testId && props.testIdOn === 'input' ? { 'data-testid': props.testId } : {};
        return (
          <TextField
            {...params}
            {...rootTestId}
            name={field.name}
            inputRef={field.ref}
            label={props.label}
            required={false}
            size="small"
            margin="dense"
            fullWidth
            error={!!error}
            helperText={<InputHelperText error={error?.message} />}
            inputProps={{ ...params.inputProps, ...inputTestId, 'aria-required': isRequired || undefined }}
          />
        );
      }}
    />
  );
}

/**
 * The address block of the facility general tab and of the patient forms (spec 03 §2/§5, spec 01 §5):
 * street with autocomplete (picking a suggestion fills street and apartment, and for a known facility
 * address the rest), apartment, zip (5 digits fill city, state, county and the coordinates unless
 * they are set manually), city with autocomplete filtered by the chosen state, state, and county
 * with autocomplete after 2 characters. Suggestions come from GET /api/address/*.
 */
export function AddressFields({ source, geoSource, manualGeoSource, disabled, testIds = {}, testIdOn = 'input', labels = {} }: AddressFieldsProps) {
  const { setValue, getValues } = useFormContext();
  const l = { ...DEFAULT_LABELS, ...labels };
  const path = (f: string) => `${source}.${f}`;
  const state = (useWatch({ name: path('state') }) as string | null) ?? '';
  const lastZip = useRef<string | null>(null);

  const set = (name: string, value: unknown) => setValue(name, value, { shouldDirty: true, shouldValidate: true, shouldTouch: true });
  const setGeo = (latitude: number | null | undefined, longitude: number | null | undefined) => {
    if (!geoSource || latitude == null || longitude == null) return;
    if (manualGeoSource && getValues(manualGeoSource)) return;
    set(`${geoSource}.latitude`, latitude);
    set(`${geoSource}.longitude`, longitude);
  };
  const fillFromZip = (z: ZipInfo) => {
    set(path('city'), z.city);
    if (STATE_CHOICES.some((c) => c.id === z.state)) set(path('state'), z.state);
    if (z.county) set(path('county'), z.county);
    setGeo(z.latitude, z.longitude);
  };

  const onZipChange = (e: { target?: { value?: string } }) => {
    const m = ZIP_LOOKUP_PATTERN.exec((e?.target?.value ?? '').replace(/\s/g, ''));
    const zip = m?.[1] ?? null;
    if (!zip || zip === lastZip.current) {
      if (!zip) lastZip.current = null;
      return;
    }
    lastZip.current = zip;
    api
      .get<ZipInfo>(`${ADDRESS_API}/zip/${zip}`)
      .then((z) => {
        // Still the zip in the field (the user may have typed on).
        const now = ZIP_LOOKUP_PATTERN.exec(String(getValues(path('zipCode')) ?? ''))?.[1];
        if (z && now === zip) fillFromZip(z);
      })
      .catch(() => undefined);
  };

  const row = { display: 'flex', flexDirection: { xs: 'column', md: 'row' }, columnGap: 2 } as const;
  return (
    <>
      <Box sx={row}>
        <SuggestInput<StreetSuggestion>
          source={path('streetLine')}
          label={l.street}
          disabled={disabled}
          testId={testIds.street}
          testIdOn={testIdOn}
          min={STREET_AUTOCOMPLETE_MIN_CHARS}
          flex={2}
          url={(q) => `${ADDRESS_API}/streets?q=${encodeURIComponent(q)}`}
          optionLabel={(o) => o.streetLine}
          renderOption={(o) => (
            <span>
              {o.streetLine}
              {o.apartmentNumber ? `, Apt ${o.apartmentNumber}` : ''}
              {o.city ? ` — ${o.city}, ${o.state ?? ''} ${o.zipCode ?? ''}` : ''}
            </span>
          )}
          valueOf={(o) => o.streetLine}
          onPick={(o) => {
            set(path('apartmentNumber'), o.apartmentNumber ?? null);
            if (o.zipCode) {
              lastZip.current = o.zipCode.slice(0, 5);
              set(path('zipCode'), o.zipCode);
              if (o.city) set(path('city'), o.city);
              if (o.state) set(path('state'), o.state);
              if (o.county) set(path('county'), o.county);
              setGeo(o.latitude, o.longitude);
            }
          }}
        />
        <TextInput
          source={path('apartmentNumber')}
          label={l.apartment}
          disabled={disabled}
          sx={{ flex: 1 }}
          {...testIdProps(testIds.apartment, testIdOn)}
        />
      </Box>
      <Box sx={row}>
        <ZipInput
          source={path('zipCode')}
          label={l.zip}
          disabled={disabled}
          onChange={onZipChange}
          sx={{ flex: 1 }}
          {...testIdProps(testIds.zip, testIdOn)}
        />
        <SuggestInput<ZipInfo>
          source={path('city')}
          label={l.city}
          disabled={disabled}
          testId={testIds.city}
          testIdOn={testIdOn}
          min={CITY_AUTOCOMPLETE_MIN_CHARS}
          url={(q) => `${ADDRESS_API}/cities?q=${encodeURIComponent(q)}${state ? `&state=${encodeURIComponent(state)}` : ''}`}
          optionLabel={(o) => o.city}
          renderOption={(o) => (
            <span>
              {o.city}, {o.state} <small>({o.county})</small>
            </span>
          )}
          valueOf={(o) => o.city}
          onPick={(o) => {
            if (STATE_CHOICES.some((c) => c.id === o.state)) set(path('state'), o.state);
            if (o.county) set(path('county'), o.county);
            if (!getValues(path('zipCode'))) {
              lastZip.current = o.zipCode;
              set(path('zipCode'), o.zipCode);
              setGeo(o.latitude, o.longitude);
            }
          }}
        />
        <SelectInput
          source={path('state')}
          label={l.state}
          choices={STATE_CHOICES}
          disabled={disabled}
          sx={{ flex: 1 }}
          data-testid={testIds.state}
        />
        <SuggestInput<CountySuggestion>
          source={path('county')}
          label={l.county}
          disabled={disabled}
          testId={testIds.county}
          testIdOn={testIdOn}
          min={COUNTY_AUTOCOMPLETE_MIN_CHARS}
          url={(q) => `${ADDRESS_API}/counties?q=${encodeURIComponent(q)}${state ? `&states=${encodeURIComponent(state)}` : ''}`}
          optionLabel={(o) => o.county}
          renderOption={(o) => (
            <span>
              {o.county}, {o.state}
            </span>
          )}
          valueOf={(o) => o.county}
          onPick={(o) => {
            if (!getValues(path('state')) && STATE_CHOICES.some((c) => c.id === o.state)) set(path('state'), o.state);
          }}
        />
      </Box>
    </>
  );
}
