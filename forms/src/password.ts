import { PASSWORD_MAX, PASSWORD_MIN } from './constants';

/** Password rule of spec 03 §5: 8 to 250 characters with a lowercase, an uppercase and a digit. */
export const PASSWORD_PATTERN = '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d).*$';
export const PASSWORD_RULE_TEXT =
  'Password must be 8 to 250 characters long and contain a lowercase letter, an uppercase letter and a digit';

export function isValidPassword(p: unknown): p is string {
  return (
    typeof p === 'string' &&
    p.length >= PASSWORD_MIN &&
    p.length <= PASSWORD_MAX &&
    new RegExp(PASSWORD_PATTERN).test(p)
  );
}
