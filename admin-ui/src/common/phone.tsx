import { Suspense, use } from 'react';

/**
 * Phone numbers on the screens of the first load (the dashboard's case table, the facility label
 * of the navigation bar) without libphonenumber-js in the entry chunk.
 *
 * A number as the API stores a North American one (E.164: +1 and ten digits) is formatted here,
 * "(813) 555-0100", which is what formatPhone of @crisis/forms returns for every such number
 * (libphonenumber-js keeps the ten digits as the national number: it strips a national prefix
 * only when nine digits would remain, never a possible length in North America). Any other value
 * (an international number) loads the library and is shown once formatted by it: the render
 * suspends for that moment, so no screen ever shows a number formatted otherwise than before.
 */
type PhoneLib = typeof import('./phoneLib');

let lib: PhoneLib | undefined;
let loading: Promise<void> | undefined;
/** The library could not be loaded (main.tsx reloads the page then): numbers are shown as stored. */
let failed = false;

const loadPhoneLib = () =>
  (loading ??= import('./phoneLib').then(
    (m) => {
      if (m) lib = m;
      else failed = true;
    },
    () => {
      failed = true;
    },
  ));

const STORED_NORTH_AMERICAN = /^\+1\d{10}$/;

/** formatPhone of @crisis/forms, once the library is there when the value needs it. */
function formatPhone(value: string): string {
  if (lib) return lib.formatPhone(value);
  if (STORED_NORTH_AMERICAN.test(value)) return `(${value.slice(2, 5)}) ${value.slice(5, 8)}-${value.slice(8)}`;
  return value;
}

function FormattedPhone({ value }: { value: string }) {
  // Suspends until the library is loaded (the same promise for every number: loaded once).
  if (!lib && !failed && !STORED_NORTH_AMERICAN.test(value)) use(loadPhoneLib());
  return <>{formatPhone(value)}</>;
}

/** A phone number as formatPhone of @crisis/forms shows it (nothing while its library loads, rarely). */
export function PhoneNumber({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Suspense fallback={null}>
      <FormattedPhone value={value} />
    </Suspense>
  );
}

let internationalPhones = false;

/**
 * The international-phones setting of GET /api/settings (spec 03 §5): kept here, and given to the
 * phone checks of @crisis/forms when a form is validated (common/schemaValidation.ts), since
 * these load with the pages that validate, after the settings.
 */
export function setInternationalPhonesSetting(on: boolean): void {
  internationalPhones = on;
}

export const internationalPhonesSetting = (): boolean => internationalPhones;
