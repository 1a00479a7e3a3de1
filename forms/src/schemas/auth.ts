import { objectSchema } from './common';
import { PASSWORD_MAX } from '../constants';
import { PASSWORD_PATTERN } from '../password';

const password = { type: 'string', minLength: 8, maxLength: PASSWORD_MAX, pattern: PASSWORD_PATTERN } as const;

/** PUT /api/user/password (spec 03 §5 Change password). */
export const changePasswordSchema = objectSchema('changePassword', ['currentPassword', 'newPassword', 'confirmPassword'], {
  currentPassword: { type: 'string', maxLength: PASSWORD_MAX },
  newPassword: password,
  confirmPassword: { type: 'string', maxLength: PASSWORD_MAX },
});
