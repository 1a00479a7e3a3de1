import { useWatch } from 'react-hook-form';
import { CITY_AUTOCOMPLETE_MIN_CHARS, COUNTY_AUTOCOMPLETE_MIN_CHARS } from '@crisis/forms/core';
import { FreeTextChipsInput } from './FreeTextChipsInput';

const ADDRESS_API = '/api/address';

/** The chosen states of the same form (a `states` array of codes). */
function useStates(source: string): string[] {
  const states = useWatch({ name: source });
  return Array.isArray(states) ? states.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * Cities as chips with autocomplete (spec 03 §2 facility list "cities (autocomplete)"; 2+ characters,
 * §5): suggestions from GET /api/address/cities, narrowed to the form's chosen states.
 */
export function CityChipsInput({ source, label, testId, statesSource = 'states' }: { source: string; label: string; testId?: string; statesSource?: string; alwaysOn?: boolean }) {
  const states = useStates(statesSource);
  return (
    <FreeTextChipsInput<{ city: string; state: string }>
      source={source}
      label={label}
      testId={testId}
      suggest={{
        min: CITY_AUTOCOMPLETE_MIN_CHARS,
        url: (q) => `${ADDRESS_API}/cities?q=${encodeURIComponent(q)}${states.length === 1 ? `&state=${encodeURIComponent(states[0])}` : ''}`,
        valueOf: (r) => r.city,
        keep: (r) => states.length === 0 || states.includes(r.state),
      }}
    />
  );
}

/** Counties as chips with autocomplete (2+ characters), from GET /api/address/counties in the form's chosen states. */
export function CountyChipsInput({ source, label, testId, statesSource = 'states' }: { source: string; label: string; testId?: string; statesSource?: string }) {
  const states = useStates(statesSource);
  return (
    <FreeTextChipsInput<{ county: string; state: string }>
      source={source}
      label={label}
      testId={testId}
      suggest={{
        min: COUNTY_AUTOCOMPLETE_MIN_CHARS,
        url: (q) => `${ADDRESS_API}/counties?q=${encodeURIComponent(q)}${states.length ? `&states=${encodeURIComponent(states.join(','))}` : ''}`,
        valueOf: (r) => r.county,
      }}
    />
  );
}
