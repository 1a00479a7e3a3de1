import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { Box, Checkbox, FormControlLabel, FormHelperText, Rating, Typography } from '@mui/material';
import { FormDialog, NoteField, schemaProblems } from '../page/dialogs';
import { useCaseErrors } from '../page/useCaseErrors';
import type { CaseDetails } from '../types';
import { recordsApi } from './records/recordsApi';

/**
 * Provide feedback on a closed case (spec 01 §3 Case feedback, §7 POST /{id}/feedback): rating
 * 1–5, note, confirmation and "can't attest". A user gives one feedback per case; opening the
 * dialog again loads it and saving updates it.
 */
export function FeedbackDialog(props: { caseRecord: CaseDetails; open: boolean; onClose: () => void; onSaved?: () => void }) {
  const { caseRecord, open, onClose } = props;
  const notify = useNotify();
  const errors = useCaseErrors(() => props.onSaved?.());
  const [rating, setRating] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [confirmation, setConfirmation] = useState(false);
  const [cantAttest, setCantAttest] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setProblems({});
    recordsApi
      .feedback(caseRecord.id)
      .then((f) => {
        setRating(f?.rating ?? null);
        setNote(f?.note ?? '');
        setConfirmation(f?.confirmation ?? false);
        setCantAttest(f?.cantAttest ?? false);
      })
      .catch(() => undefined);
  }, [open, caseRecord.id]);

  const submit = async () => {
    const payload = { rating, note, confirmation, cantAttest };
    const found = schemaProblems('caseFeedback', payload);
    setProblems(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await recordsApi.saveFeedback(caseRecord.id, payload);
      notify('Thank you for your feedback', { type: 'success' });
      props.onSaved?.();
      onClose();
    } catch (e) {
      const fields = errors.handle(e);
      if (fields) setProblems(fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <FormDialog open={open} title="Provide feedback" testId="feedback-dialog" submitLabel="Submit" busy={busy} onClose={onClose} onSubmit={submit}>
        <Box>
          <Typography component="legend">Rating</Typography>
          <Rating value={rating} max={5} onChange={(_e, v) => setRating(v)} data-testid="feedback-rating" />
          {problems.rating ? <FormHelperText error>{problems.rating}</FormHelperText> : null}
        </Box>
        <NoteField label="Note" value={note} onChange={setNote} error={problems.note} testId="feedback-note" />
        <FormControlLabel
          control={<Checkbox checked={confirmation} onChange={(e) => setConfirmation(e.target.checked)} inputProps={{ 'data-testid': 'feedback-confirmation' } as object} />}
          label="I confirm the information above"
        />
        <FormControlLabel
          control={<Checkbox checked={cantAttest} onChange={(e) => setCantAttest(e.target.checked)} inputProps={{ 'data-testid': 'feedback-cant-attest' } as object} />}
          label="I can't attest"
        />
      </FormDialog>
      {errors.dialog}
    </>
  );
}
