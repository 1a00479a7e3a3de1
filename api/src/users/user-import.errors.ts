export { CodedError } from '../common/coded-error';
/** A file with errors sent to POST /api/user/import: the payload lists them (as /validate does). */
export const ErrorCodeImport = 'INV';
