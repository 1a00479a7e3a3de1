import { ErrorCode } from '@crisis/forms/core';
import { isCodedError } from '../data/codedError';
import type { InfoDialogContent } from './InfoDialog';

const TITLES: Record<string, string> = {
  [ErrorCode.DeactivateFacilityWithGroups]: 'The facility belongs to group organizations',
  [ErrorCode.DeactivateFacilityWithActiveCases]: 'The facility has active cases',
  [ErrorCode.DeactivateFacilityWithActiveDivisions]: 'The facility has active divisions',
  [ErrorCode.DeactivateDivisionWithActiveCases]: 'The division has active cases',
  [ErrorCode.DeactivateDivisionWithCredentialedProviders]: 'The division has credentialed providers',
  [ErrorCode.RemoveProviderFromDivisionsWithPendingRequests]: 'The provider has pending requests',
};

/** What the dialog says under its title; a deactivation unless named here. */
const MESSAGES: Record<string, string> = {
  [ErrorCode.RemoveProviderFromDivisionsWithPendingRequests]: 'He cannot be removed from these divisions while his requests there are pending:',
};

const decode = (v: unknown): string => {
  const s = typeof v === 'string' ? v : v && typeof v === 'object' ? String((v as any).name ?? (v as any).fullName ?? (v as any).id ?? JSON.stringify(v)) : String(v);
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A deactivation or removal refused by the server (spec 03 §8) as an info dialog listing what blocks it; else null. */
export function blockedActionDialog(error: unknown): InfoDialogContent | null {
  if (!isCodedError(error) || !TITLES[error.code]) return null;
  const payload = error.payload;
  const items = Array.isArray(payload) ? payload.map(decode) : payload == null ? [] : [decode(payload)];
  return { title: TITLES[error.code], message: MESSAGES[error.code] ?? 'It cannot be deactivated while these remain:', items };
}
