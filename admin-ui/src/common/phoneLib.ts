/**
 * The phone functions of @crisis/forms with libphonenumber-js (~28 KB gzip), loaded on demand by
 * ./phone.tsx: not in the first load's chunks. Pages loaded on demand import them from
 * @crisis/forms/core directly (the same module, so the same code and the same policy).
 */
export { formatPhone } from '@crisis/forms/core';
