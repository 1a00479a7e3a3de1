import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useState } from 'react';
import { TextInput } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { PLAN_NAME_REQUIRED, type EhrPlanResult } from '@crisis/forms/core';
import { inputTestId } from '../common/testId';
import { useAppData } from '../data/query';

/** How many addresses a result shows; the rest are in a tooltip (spec 02 §1 "Athena payer search result"). */
const SHOWN_ADDRESSES = 2;

function Addresses({ lines }: { lines: string[] }) {
  const rest = lines.slice(SHOWN_ADDRESSES);
  return (
    <Box>
      {lines.slice(0, SHOWN_ADDRESSES).map((l) => (
        <Typography key={l} variant="body2">
          {l}
        </Typography>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.map((l) => <div key={l}>{l}</div>)}>
          <Typography variant="body2" color="primary" sx={{ cursor: 'help' }} tabIndex={0} data-testid="ehr-plan-more-addresses">
            +{rest.length} more
          </Typography>
        </Tooltip>
      )}
    </Box>
  );
}

/**
 * The payer's EHR plan package id (spec 03 §3 Payer "plan package id from the EHR", §5 "the EHR
 * plan lookup requires plan name"): typed, or picked from the EHR's InsurancePlan search by plan
 * name. Picking a result fills the package id and, when empty, the plan name.
 */
export function EhrPlanField() {
  const dp = useAppData();
  const { getValues, setValue } = useFormContext();
  const [open, setOpen] = useState(false);
  const [planName, setPlanName] = useState('');
  const [results, setResults] = useState<EhrPlanResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const openDialog = () => {
    setPlanName(String(getValues('planName') ?? ''));
    setResults(null);
    setError(null);
    setOpen(true);
  };
  const search = async () => {
    if (!planName.trim()) return setError(PLAN_NAME_REQUIRED);
    setBusy(true);
    setError(null);
    try {
      setResults(await dp.ehrPlanSearch(planName.trim()));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const choose = (p: EhrPlanResult) => {
    setValue('planPackageId', p.insurancePackageId, { shouldDirty: true });
    if (!String(getValues('planName') ?? '').trim()) setValue('planName', p.insurancePlanName, { shouldDirty: true });
    setOpen(false);
  };

  return (
    <Stack direction="row" spacing={1} alignItems="flex-start">
      <TextInput source="planPackageId" label="EHR plan package id" {...inputTestId('payer-planPackageId')} />
      <Button startIcon={<SearchIcon />} onClick={openDialog} sx={{ mt: 1 }} data-testid="payer-ehr-search">
        Search the EHR
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth aria-labelledby="ehr-plan-title">
        <DialogTitle id="ehr-plan-title">Insurance plans in the EHR</DialogTitle>
        <DialogContent>
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            <TextField
              size="small"
              label="Plan name *"
              value={planName}
              autoFocus
              onChange={(e) => setPlanName(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && search()}
              error={error === PLAN_NAME_REQUIRED}
              helperText={error === PLAN_NAME_REQUIRED ? error : undefined}
              inputProps={{ 'data-testid': 'ehr-plan-name' }}
            />
            <Button variant="contained" onClick={search} disabled={busy} data-testid="ehr-plan-search">
              Search
            </Button>
          </Stack>
          {error && error !== PLAN_NAME_REQUIRED && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
          {results && results.length === 0 && <Typography sx={{ mt: 2 }}>No plan of that name in the EHR.</Typography>}
          {results && results.length > 0 && (
            <Table size="small" sx={{ mt: 2 }} data-testid="ehr-plan-results">
              <TableHead>
                <TableRow>
                  <TableCell>Package id</TableCell>
                  <TableCell>Plan name</TableCell>
                  <TableCell>Affiliations</TableCell>
                  <TableCell>Addresses</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {results.map((p) => (
                  <TableRow key={p.insurancePackageId} data-testid="ehr-plan-row">
                    <TableCell>{p.insurancePackageId}</TableCell>
                    <TableCell>{p.insurancePlanName}</TableCell>
                    <TableCell>{p.affiliations.join(', ')}</TableCell>
                    <TableCell>
                      <Addresses lines={p.addressList} />
                    </TableCell>
                    <TableCell>
                      <Button size="small" onClick={() => choose(p)} data-testid="ehr-plan-choose">
                        Choose
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
