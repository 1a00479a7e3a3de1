import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { EHR_CLAIM_RETRY_FAILED } from '@crisis/forms/core';
import { useAppMutation } from '../data/query';

type RetryResult = { retried: string[]; nothingToRetry: string[]; notFound: string[] };

/** Splits what an admin pastes (commas, spaces, lines) into reference numbers. */
const references = (text: string) => text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);

/**
 * The ITP admin's retry of failed EHR claims (spec 01 §7 "retry of an EHR claim", 02 §8 "Audit
 * retry failure"): the case reference numbers in, what was retried, had nothing to retry or was
 * not found out. Each retried claim shows in its case's activity as it is sent again.
 */
export function RetryEhrClaimsButton() {
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [result, setResult] = useState<RetryResult | null>(null);
  const retry = useAppMutation((dp, refs: string[]) => dp.retryEhrClaims(refs));
  const refs = references(text);

  const close = () => {
    setOpen(false);
    setText('');
    setResult(null);
  };
  const submit = async () => {
    try {
      setResult(await retry.mutateAsync(refs));
    } catch (e) {
      notify(e instanceof Error && e.message ? e.message : EHR_CLAIM_RETRY_FAILED, { type: 'error' });
    }
  };

  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="retry-ehr-claims">
        Retry EHR claims
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby="retry-ehr-claims-title">
        <DialogTitle id="retry-ehr-claims-title">Retry failed EHR claims</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Case reference numbers, separated by commas, spaces or lines (for example #000123).
          </Typography>
          <TextField
            multiline
            minRows={3}
            fullWidth
            autoFocus
            label="Case reference numbers"
            value={text}
            onChange={(e) => setText(e.target.value)}
            inputProps={{ 'data-testid': 'retry-ehr-claims-input' }}
          />
          {result && (
            <Alert severity={result.retried.length ? 'success' : 'info'} sx={{ mt: 2 }} data-testid="retry-ehr-claims-result">
              {result.retried.length ? `Retrying: ${result.retried.join(', ')}.` : 'No failed claim to retry.'}
              {result.nothingToRetry.length ? ` No failed claim: ${result.nothingToRetry.join(', ')}.` : ''}
              {result.notFound.length ? ` Not found: ${result.notFound.join(', ')}.` : ''}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Close</Button>
          <Button variant="contained" disabled={!refs.length || retry.isPending} onClick={submit} data-testid="retry-ehr-claims-submit">
            Retry
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
