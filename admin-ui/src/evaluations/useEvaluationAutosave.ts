import { useCallback, useEffect, useRef, useState } from 'react';
import { ErrorCode, EVALUATION_AUTOSAVE_DELAY_MS, type EvaluationView, type FieldError, type QuestionnaireItem } from '@crisis/forms/core';
import { useAppData } from '../data/query';
import { codeOf } from '../billing-codes/codedFields';
import { clearDrafts, payloadOf, snapshotOf, valuesOf, writeDraft, type EvaluationValues } from './evaluationDraft';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

/**
 * The evaluation's save state and, in new mode, its autosave: each change is kept in the tab's
 * draft at once and sent ~800 ms after the last one with the version it was made from; the
 * answer carries the next version. One save at a time; changes made meanwhile go in the next.
 * A save from an older version (another tab saved since) is refused by the API: `stale` blocks
 * the screen until it is reloaded.
 */
export function useEvaluationAutosave({
  view,
  items,
  editing,
  autosave,
  initial,
  restored,
  onProblems,
  onFailure,
}: {
  view: EvaluationView;
  items: readonly QuestionnaireItem[];
  editing: boolean;
  /** New mode: save by itself. Edit mode keeps the draft but saves only on the Save button. */
  autosave: boolean;
  /** The values the screen starts from: the view's, or the restored draft. */
  initial: EvaluationValues;
  /** A draft of this tab was restored (not yet saved). */
  restored: boolean;
  onProblems: (problems: FieldError[]) => void;
  onFailure: (e: unknown) => void;
}) {
  const dp = useAppData();
  const requestId = view.requestId;
  const version = useRef(view.version);
  const values = useRef<EvaluationValues>(initial);
  // What the server holds, as a save would send it.
  const saved = useRef<string | null>(null);
  if (saved.current === null) saved.current = snapshotOf(valuesOf(view), items, editing);
  const running = useRef<Promise<boolean> | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const [state, setState] = useState<SaveState>(restored ? 'unsaved' : 'saved');
  const [stale, setStale] = useState(false);
  const staleRef = useRef(false);
  const callbacks = useRef({ onProblems, onFailure });
  callbacks.current = { onProblems, onFailure };

  const dirty = () => snapshotOf(values.current, items, editing) !== saved.current;

  /** One PUT of the current values; false when it failed. */
  const saveOnce = useCallback(async (): Promise<boolean> => {
    const sent = values.current;
    const snapshot = snapshotOf(sent, items, editing);
    const from = version.current;
    setState('saving');
    try {
      const res = await dp.saveEvaluation(requestId, payloadOf(sent, items, from, editing));
      clearDrafts(requestId, from);
      version.current = res.version;
      saved.current = snapshot;
      // Typed while the save was on its way: kept under the version the next save starts from.
      if (dirty()) writeDraft(requestId, version.current, values.current);
      setState(dirty() ? 'unsaved' : 'saved');
      callbacks.current.onProblems([]);
      return true;
    } catch (e) {
      setState('failed');
      const code = codeOf(e);
      if (code === ErrorCode.EvaluationStale) {
        staleRef.current = true;
        setStale(true);
      } else if (code === ErrorCode.EvaluationCannotBeSaved) callbacks.current.onProblems(((e as { fields?: FieldError[] }).fields ?? []) as FieldError[]);
      else callbacks.current.onFailure(e);
      return false;
    }
  }, [dp, requestId, items, editing]);

  /** Saves what is unsaved; with `untilClean`, again until nothing is (before completing). */
  const flush = useCallback(
    async (untilClean = false): Promise<boolean> => {
      window.clearTimeout(timer.current);
      while (running.current) await running.current;
      if (staleRef.current) return false;
      if (!dirty()) return true;
      running.current = saveOnce();
      const ok = await running.current;
      running.current = null;
      if (!ok) return false;
      if (dirty()) {
        if (untilClean) return flush(true);
        if (autosave) timer.current = window.setTimeout(() => void flush(), EVALUATION_AUTOSAVE_DELAY_MS);
      }
      return true;
    },
    [saveOnce, autosave],
  );

  /** Every change of the screen's values comes through here. */
  const changed = useCallback(
    (next: EvaluationValues) => {
      values.current = next;
      if (staleRef.current) return;
      if (!dirty()) {
        clearDrafts(requestId, version.current);
        if (!running.current) setState('saved');
        window.clearTimeout(timer.current);
        return;
      }
      writeDraft(requestId, version.current, next);
      setState('unsaved');
      if (!autosave) return;
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush(), EVALUATION_AUTOSAVE_DELAY_MS);
    },
    [requestId, autosave, flush],
  );

  // A restored draft goes out as soon as the screen is up.
  useEffect(() => {
    if (autosave && restored) timer.current = window.setTimeout(() => void flush(), 0);
    // Once, on mount.
  }, []);

  // Leaving the screen with a change not yet sent: send it (the tab's draft keeps it anyway). Runs
  // once, on unmount: the refs hold the latest state.
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      if (autosave && !staleRef.current && !running.current && dirty()) {
        const sending = saveOnce();
        running.current = sending;
        void sending.finally(() => (running.current = running.current === sending ? null : running.current));
      }
    },
    [],
  );

  /** A save outside the autosave was refused as stale: block the screen the same way. */
  const markStale = useCallback(() => {
    staleRef.current = true;
    setStale(true);
    setState('failed');
  }, []);

  return { state, stale, flush, changed, markStale, version: () => version.current, isDirty: dirty };
}
