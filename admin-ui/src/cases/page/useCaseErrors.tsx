import { useCallback, useState, type ReactNode } from 'react';
import { useNotify } from 'react-admin';
import { isCodedError } from '../../data/codedError';
import { OkDialog } from './dialogs';
import { ErrorCode } from '@crisis/forms/core';

export type Content = { title: string; message: ReactNode } | null;

/**
 * The coded errors the case page handles itself (spec 01 §8): someone else changed the status
 * (reload and say so), the case is closed, a request is still active. Field errors go back to
 * the form (returned); anything else is a toast.
 */
export function useCaseErrors(reload: () => void) {
  const notify = useNotify();
  const [content, setContent] = useState<Content>(null);
  const handle = useCallback(
    (e: unknown): Record<string, string> | null => {
      if (isCodedError(e)) {
        const payload = (e.payload ?? {}) as Record<string, unknown>;
        switch (e.code) {
          case ErrorCode.CaseStatusChanged:
            reload();
            setContent({ title: 'The case has changed', message: 'Someone else changed the status of this case. The page shows the current status now; please check it and try again.' });
            return null;
          case ErrorCode.CaseIsClosed:
            reload();
            setContent({ title: 'The case is closed', message: 'The case is closed: this action is no longer possible.' });
            return null;
          case ErrorCode.CaseHasActiveRequest:
            setContent({
              title: 'The case has an active request',
              message: `The latest request is still active${payload.status ? ` (status: ${String(payload.status)})` : ''}. Cancel or complete it first.`,
            });
            return null;
          case ErrorCode.CaseNothingToResume:
            reload();
            setContent({ title: 'Nothing to resume', message: 'The case has no status to resume to.' });
            return null;
          case ErrorCode.CaseNothingToUndo:
            reload();
            setContent({ title: 'Nothing to undo', message: 'The case has no status change to undo.' });
            return null;
        }
        if (e.fields.length) {
          const out: Record<string, string> = {};
          for (const f of e.fields) if (f.field && !out[f.field]) out[f.field] = f.message;
          if (Object.keys(out).length) return out;
        }
      }
      notify((e as Error)?.message ?? 'Action failed', { type: 'error' });
      return null;
    },
    [notify, reload],
  );
  const dialog = <OkDialog content={content} onClose={() => setContent(null)} />;
  return { handle, dialog, show: setContent };
}
