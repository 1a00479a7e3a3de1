import { useEffect, useState } from 'react';
import { Box, Checkbox, FormControlLabel, FormHelperText, Rating, Typography } from '@mui/material';
import { useAppData } from '../../data/query';
import { FormDialog, NoteField } from '../page/dialogs';
import type { CaseDetails } from '../types';
import { useCardCommands } from './CaseCard';

/**
 * Provide feedback on a closed case (spec 01 §3 Case feedback, §7 POST /{id}/feedback): rating
 * 1–5, note, confirmation and "can't attest". A user gives one feedback per case; opening the
 * dialog again loads it and saving updates it.
 */
export function FeedbackDialog(props: { caseRecord: CaseDetails; open: boolean; onClose: () => void; onSaved?: () => void }) {
  const { caseRecord, open, onClose } = props;
  const dp = useAppData();
  const onSaved = () => props.onSaved?.();
  const { submit: send, setProblems, problems, busy, dialog } = useCardCommands(caseRecord, onSaved, ['feedback']);
  const [rating, setRating] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [confirmation, setConfirmation] = useState(false);
  const [cantAttest, setCantAttest] = useState(false);

  useEffect(() => {
    if (!open) return;
    setProblems({});
    dp.caseFeedback(caseRecord.id)
      .then((f) => {
        setRating(f?.rating ?? null);
        setNote(f?.note ?? '');
        setConfirmation(f?.confirmation ?? false);
        setCantAttest(f?.cantAttest ?? false);
      })
      .catch(() => undefined);
  }, [open, caseRecord.id, dp, setProblems]);

  const submit = async () => {
    const payload = { rating, note, confirmation, cantAttest };
    if (await send('caseFeedback', payload, (d) => d.saveCaseFeedback(caseRecord.id, payload), 'Thank you for your feedback')) {
      onSaved();
      onClose();
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
      {dialog}
    </>
  );
}
