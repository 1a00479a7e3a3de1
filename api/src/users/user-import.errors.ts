import { ErrorCode } from '@crisis/forms';

/** A file with errors sent to POST /api/user/import: the payload lists them (as /validate does). */
export const ErrorCodeImport = ErrorCode.Invalid;
