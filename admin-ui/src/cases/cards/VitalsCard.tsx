import { useState } from 'react';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, TextField } from '@mui/material';
import { CaseStatus, fractionToPercent, percentToFraction } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { keys, useAppQuery } from '../../data/query';
import { FormDialog } from '../page/dialogs';
import type { CaseCardProps } from '../types';
import { CaseCard, useCardCommands } from './CaseCard';
import { authorName, localInputToIso, nowLocalInput, numberOrNull, when } from './records/recordFormat';
import { onSourceSide } from '../sourceSide';

const EMPTY = { submittedOn: '', pulse: '', systolic: '', diastolic: '', oxygenSaturation: '', bodyTemperature: '', respirationRate: '' };
type Values = typeof EMPTY;

/** The payload of the vitals form (spec 01 §3 Vitals): oxygen saturation entered in percent, sent divided by 100. */
export function vitalsPayload(v: Values) {
  const systolic = numberOrNull(v.systolic);
  const diastolic = numberOrNull(v.diastolic);
  const oxygen = numberOrNull(v.oxygenSaturation);
  return {
    submittedOn: localInputToIso(v.submittedOn),
    pulse: numberOrNull(v.pulse),
    bloodPressure: systolic === null && diastolic === null ? null : { systolic, diastolic },
    oxygenSaturation: typeof oxygen === 'number' ? percentToFraction(oxygen) : oxygen,
    bodyTemperature: numberOrNull(v.bodyTemperature),
    respirationRate: numberOrNull(v.respirationRate),
  };
}

/** The vitals card (spec 01 §2, §5 Vitals): table and an add modal for ITP and source-side facility staff while the case is open. */
export function VitalsCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'vitals'), (dp) => dp.vitals(caseRecord.id));
  const { submit: send, problems, setProblems, busy, dialog } = useCardCommands(caseRecord, onChanged, ['vitals']);
  const [values, setValues] = useState<Values | null>(null);
  const canAdd = caseRecord.status !== CaseStatus.Closed && ability.can('create', 'Vitals') && onSourceSide(context, caseRecord);

  const set = (k: keyof Values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => (v ? { ...v, [k]: e.target.value } : v));
  const submit = async () => {
    if (!values) return;
    const payload = vitalsPayload(values);
    if (await send('vitals', payload, (dp) => dp.addVitals(caseRecord.id, payload), 'Vitals added')) setValues(null);
  };
  const problem = (k: string) => problems[k] ?? problems[`bloodPressure.${k}`] ?? problems[`bloodPressure/${k}`];
  const field = (k: keyof Values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      type="number"
      value={values?.[k] ?? ''}
      onChange={set(k)}
      error={!!problem(k)}
      helperText={problem(k)}
      inputProps={{ 'data-testid': `vitals-${k}`, min: 0, ...extra }}
      size="small"
    />
  );

  const open = () => {
    setProblems({});
    setValues({ ...EMPTY, submittedOn: nowLocalInput() });
  };
  return (
    <CaseCard
      title="Vitals"
      testId="vitals-card"
      action={canAdd && { label: 'Add', testId: 'vitals-add', onClick: open }}
      error={error}
      empty={!!data && !data.length}
      emptyText="No vitals yet"
      dialogs={
        <>
          <FormDialog open={!!values} title="Add vitals" testId="vitals-dialog" busy={busy} onClose={() => setValues(null)} onSubmit={submit}>
            <TextField
              label="Submitted on"
              type="datetime-local"
              required
              value={values?.submittedOn ?? ''}
              onChange={set('submittedOn')}
              error={!!problems.submittedOn}
              helperText={problems.submittedOn}
              InputLabelProps={{ shrink: true }}
              inputProps={{ 'data-testid': 'vitals-submittedOn', max: nowLocalInput() }}
              size="small"
            />
            {field('pulse', 'Pulse', { step: 1 })}
            <Box sx={{ display: 'flex', gap: 2 }}>
              {field('systolic', 'Systolic', { step: 1 })}
              {field('diastolic', 'Diastolic', { step: 1 })}
            </Box>
            {field('oxygenSaturation', 'Oxygen saturation (%)', { max: 100, step: 'any' })}
            {field('bodyTemperature', 'Body temperature (°F)', { step: 'any' })}
            {field('respirationRate', 'Respiration rate', { step: 'any' })}
          </FormDialog>
          {dialog}
        </>
      }
    >
      {data?.length ? (
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Vitals">
          <Table size="small" data-testid="vitals-table">
            <TableHead>
              <TableRow>
                <TableCell>Submitted on</TableCell>
                <TableCell>Pulse</TableCell>
                <TableCell>Blood pressure</TableCell>
                <TableCell>O₂ saturation</TableCell>
                <TableCell>Temperature</TableCell>
                <TableCell>Respiration rate</TableCell>
                <TableCell>Added by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((v) => (
                <TableRow key={v.id} data-testid="vitals-row">
                  <TableCell>{when(v.submittedOn)}</TableCell>
                  <TableCell>{v.pulse ?? ''}</TableCell>
                  <TableCell>
                    {v.bloodPressure.systolic != null || v.bloodPressure.diastolic != null
                      ? `${v.bloodPressure.systolic ?? '–'}/${v.bloodPressure.diastolic ?? '–'}`
                      : ''}
                  </TableCell>
                  <TableCell>{v.oxygenSaturation != null ? `${fractionToPercent(v.oxygenSaturation)}%` : ''}</TableCell>
                  <TableCell>{v.bodyTemperature != null ? `${v.bodyTemperature} °F` : ''}</TableCell>
                  <TableCell>{v.respirationRate ?? ''}</TableCell>
                  <TableCell>{authorName(v.createdBy)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}
    </CaseCard>
  );
}
