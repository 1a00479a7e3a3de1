import { TextInput, type TextInputProps } from 'react-admin';
import { maskZip } from './masks';

/** Zip code: 5 digits plus optional 4 (12345-6789). */
export function ZipInput(props: TextInputProps) {
  return <TextInput format={(v: string | null) => maskZip(v)} parse={(v: string) => maskZip(v)} {...props} />;
}
