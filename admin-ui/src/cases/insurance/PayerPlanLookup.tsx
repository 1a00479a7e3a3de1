import { useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { PLAN_NAME_REQUIRED, normalizeInput, payerLookupEntries } from '@crisis/forms/core';
import { validate } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { useAppData } from '../../data/query';

type Entry = ReturnType<typeof payerLookupEntries>[number];

/**
 * The payer look-up by plan name (spec 01 §5 Insurance): a plan name (required) searches the
 * insurance directory; each result shows its payer, plan and first two addresses (the rest in a
 * tooltip); choosing one picks its payer for the insurance.
 */
export function PayerPlanLookup({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (payerId: number) => void }) {
  const dp = useAppData();
  const [planName, setPlanName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [busy, setBusy] = useState(false);

  const search = async () => {
    // The same rule as the server's (payerInsuranceQuery): a plan name is required.
    const problems = validate('payerInsuranceQuery', normalizeInput({ planName }));
    if (problems.length) return setError(problems[0].message ?? PLAN_NAME_REQUIRED);
    setError(null);
    setBusy(true);
    try {
      setEntries(payerLookupEntries(await dp.payerInsuranceLookup(planName.trim())));
    } catch (e) {
      setError(isCodedError(e) ? e.message : 'The look-up failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="payer-lookup-dialog">
      <DialogTitle>Look up a payer by plan name</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}>
          <TextField
            size="small"
            label="Plan name *"
            value={planName}
            onChange={(e) => setPlanName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void search();
              }
            }}
            error={!!error}
            helperText={error}
            fullWidth
            inputProps={{ maxLength: 255, 'data-testid': 'payer-lookup-plan' }}
          />
          <Button variant="contained" onClick={() => void search()} disabled={busy} data-testid="payer-lookup-search">
            Search
          </Button>
        </Box>
        {entries && entries.length === 0 && (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            No plan found.
          </Typography>
        )}
        {entries && entries.length > 0 && (
          <List dense sx={{ mt: 1 }}>
            {entries.map((e) => (
              <ListItemButton key={`${e.payerId}-${e.planName}`} onClick={() => onPick(e.payerId)} data-testid="payer-lookup-result">
                <ListItemText
                  primary={`${e.planName} — ${e.payerName}`}
                  secondary={
                    <>
                      {e.shown.join(' · ') || 'No address'}
                      {e.more.length > 0 && (
                        <Tooltip title={e.more.join(' · ')}>
                          <span data-testid="payer-lookup-more"> (+{e.more.length} more)</span>
                        </Tooltip>
                      )}
                    </>
                  }
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
