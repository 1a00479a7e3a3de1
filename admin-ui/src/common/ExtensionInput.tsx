import { TextInput, type TextInputProps } from 'react-admin';
import { digitsOnly } from './masks';

/** A phone extension: digits only. */
export function ExtensionInput(props: TextInputProps) {
  return <TextInput label="Ext." parse={(v: string) => digitsOnly(v)} sx={{ maxWidth: 110 }} {...props} />;
}
