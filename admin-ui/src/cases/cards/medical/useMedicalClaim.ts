import { useCallback, useEffect, useRef, useState } from 'react';
import { CLAIM_POLL_MS, ErrorCode, MEDICAL_INFO_CLAIM_RENEW_MS } from '@crisis/forms/core';
import { getAccessToken } from '../../../auth/userManager';
import { isCodedError } from '../../../data/codedError';
import type { Claim } from '@crisis/forms/core';
import { useAppData } from '../../../data/query';

/**
 * The claim (edit lock) on a case's medical information (spec 01 §4): `acquire` claims it before
 * the edit opens, it is renewed every MEDICAL_INFO_CLAIM_RENEW_MS, and released on `release`, on
 * unmount and when the page is left. `holder` is another user's active claim (polled every
 * CLAIM_POLL_MS while we hold none) so Edit can be disabled with that user's name. `onLost` runs
 * when a renewal finds the claim overdue or inactive.
 */
export function useMedicalClaim(caseId: number, opts: { enabled: boolean; myUserId: number; onLost: () => void }) {
  const dp = useAppData();
  const [mine, setMine] = useState<Claim | null>(null);
  const [holder, setHolder] = useState<Claim | null>(null);
  const mineRef = useRef<Claim | null>(null);
  const tokenRef = useRef<string | null>(null);
  const onLost = useRef(opts.onLost);
  onLost.current = opts.onLost;

  const poll = useCallback(async () => {
    try {
      const c = await dp.medicalClaimHolder(caseId);
      setHolder(c && c.subjectId !== opts.myUserId ? c : null);
    } catch {
      /* a failed poll keeps the last answer */
    }
  }, [caseId, opts.myUserId]);

  // Poll who holds the claim while we do not.
  useEffect(() => {
    if (!opts.enabled || mine) return;
    void poll();
    const t = setInterval(() => void poll(), CLAIM_POLL_MS);
    return () => clearInterval(t);
  }, [opts.enabled, mine, poll]);

  // Renew while we hold it.
  useEffect(() => {
    if (!mine) return;
    const t = setInterval(async () => {
      try {
        const c = await dp.extendMedicalClaim(mine.id);
        mineRef.current = c;
      } catch (e) {
        if (isCodedError(e) && (e.code === ErrorCode.ClaimOverdueOrInactive || e.status === 403 || e.status === 404)) {
          mineRef.current = null;
          setMine(null);
          onLost.current();
        }
      }
    }, MEDICAL_INFO_CLAIM_RENEW_MS);
    return () => clearInterval(t);
  }, [mine]);

  // Leaving the page (tab closed, reload): release with a keepalive request.
  useEffect(() => {
    const leave = () => {
      const c = mineRef.current;
      if (!c) return;
      void fetch(`/api/claims/${c.id}/release`, {
        method: 'PUT',
        keepalive: true,
        headers: tokenRef.current ? { Authorization: `Bearer ${tokenRef.current}` } : {},
      }).catch(() => undefined);
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      // Unmount (navigating away inside the app).
      const c = mineRef.current;
      mineRef.current = null;
      if (c) void dp.releaseMedicalClaim(c.id).catch(() => undefined);
    };
  }, []);

  /** Claims the object; another user's claim throws the coded error (INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED). */
  const acquire = useCallback(async () => {
    tokenRef.current = await getAccessToken();
    try {
      const c = await dp.claimMedicalInformation(caseId);
      mineRef.current = c;
      setMine(c);
      setHolder(null);
      return c;
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.ObjectAlreadyClaimed) {
        const p = (e.payload ?? {}) as Partial<Claim>;
        setHolder({ id: 0, subjectId: Number(p.subjectId), subjectName: String(p.subjectName ?? ''), expiresAt: '' });
      }
      throw e;
    }
  }, [caseId]);

  const release = useCallback(async () => {
    const c = mineRef.current;
    mineRef.current = null;
    setMine(null);
    if (c) await dp.releaseMedicalClaim(c.id).catch(() => undefined);
  }, []);

  return { mine, holder, acquire, release };
}
