import { TextInput, type TextInputProps } from 'react-admin';
import { useSession } from '../auth/session';
import { maskPhone, showPhone } from './masks';

/** A phone or fax number shown as (xxx) xxx-xxxx while typing. */
export function PhoneInput(props: TextInputProps) {
  const { settings } = useSession();
  return (
    <TextInput
      format={(v: string | null) => maskPhone(showPhone(v), settings.internationalPhones)}
      parse={(v: string) => maskPhone(v, settings.internationalPhones)}
      placeholder="(xxx) xxx-xxxx"
      {...props}
    />
  );
}
