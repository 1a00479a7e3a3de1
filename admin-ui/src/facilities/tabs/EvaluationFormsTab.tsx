import { useEffect, useState } from 'react';
import { Box, Button, Checkbox, MenuItem, Select, TextField, Typography } from '@mui/material';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { enumLabel, normalizeInput, type FacilityEvaluationFormRecord } from '@crisis/forms/core';
import { validatePayload } from '../../common/schemaValidation';
import { SimpleTable } from '../../common/SimpleTable';
import { toFacilityPayload } from '../facilityPayload';
import type { FacilityRecord } from '../facilityTypes';
import { useAppData } from '../../data/query';
import { useTabQuery } from './TabTable';
import { EhrConnectionCard } from './EhrConnectionCard';

/** The EHR department id is a field of the facility: saved by a PUT of the facility (spec 03 §7). */
function EhrDepartmentForm() {
  const record = useRecordContext<FacilityRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  const dp = useAppData();
  const [value, setValue] = useState(record?.ehrDepartmentId ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => setValue(record?.ehrDepartmentId ?? ''), [record?.ehrDepartmentId]);
  if (!record) return null;
  const save = async () => {
    const payload = normalizeInput(toFacilityPayload({ ...record, ehrDepartmentId: value }));
    const errors = validatePayload('facility', payload).filter((e) => e.field === 'ehrDepartmentId');
    if (errors.length) return setError(errors[0].message);
    setSaving(true);
    try {
      await dp.update('facilities', { id: record.id, data: payload, previousData: record });
      notify('EHR department id saved', { type: 'success' });
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mb: 3 }}>
      <TextField
        size="small"
        label="EHR department id"
        value={value}
        error={!!error}
        helperText={error ?? ' '}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        slotProps={{ htmlInput: { 'data-testid': 'ehr-department-id' } }}
      />
      <Button variant="contained" onClick={save} disabled={saving} data-testid="ehr-department-save">
        Save
      </Button>
    </Box>
  );
}

/** Evaluation forms tab (spec 03 §2): per request type an evaluation form and a bill-to-EHR checkbox, each auto-saved. */
export function EvaluationFormsTab({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const dp = useAppData();
  const forms = useTabQuery(facilityId, ['evaluationForms'], (dp) => dp.evaluationForms()).data ?? [];
  const loaded = useTabQuery(facilityId, ['facilityEvaluationForms'], (dp) => dp.facilityEvaluationForms(facilityId)).data;
  const [changed, setChanged] = useState<FacilityEvaluationFormRecord[] | null>(null);
  const rows = changed ?? loaded;
  const setRows = (update: (rs: FacilityEvaluationFormRecord[] | null) => FacilityEvaluationFormRecord[] | null) =>
    setChanged((rs) => update(rs ?? loaded));

  const save = async (row: FacilityEvaluationFormRecord, change: Partial<FacilityEvaluationFormRecord>) => {
    const next = { ...row, ...change };
    setRows((rs) => rs?.map((r) => (r.requestType === row.requestType ? next : r)) ?? rs);
    try {
      const saved = await dp.saveFacilityEvaluationForm(facilityId, {
        requestType: next.requestType,
        evaluationFormId: next.evaluationFormId,
        isAthenaBilled: next.isAthenaBilled,
      });
      setRows((rs) => rs?.map((r) => (r.requestType === row.requestType ? saved : r)) ?? rs);
      notify('Saved', { type: 'success' });
    } catch (e) {
      setRows((rs) => rs?.map((r) => (r.requestType === row.requestType ? row : r)) ?? rs);
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Box data-testid="evaluation-forms-tab">
      <EhrDepartmentForm />
      <EhrConnectionCard facilityId={facilityId} />
      <SimpleTable<FacilityEvaluationFormRecord>
        testId="ef-table"
        columns={[
          { label: 'Request type', render: (r) => enumLabel(r.requestType) },
          {
            label: 'Evaluation form',
            render: (r) => (
              <Select
                size="small"
                displayEmpty
                value={r.evaluationFormId ?? ''}
                onChange={(e) => save(r, { evaluationFormId: String(e.target.value) === '' ? null : Number(e.target.value) })}
                sx={{ minWidth: 320 }}
                inputProps={{ 'aria-label': `Evaluation form for ${enumLabel(r.requestType)}` }}
                data-testid={`ef-form-${r.requestType}`}
              >
                <MenuItem value="">
                  <Typography color="text.secondary">None</Typography>
                </MenuItem>
                {forms.map((f) => (
                  <MenuItem key={f.id} value={f.id}>
                    {f.name}
                  </MenuItem>
                ))}
              </Select>
            ),
          },
          {
            label: 'Bill to EHR',
            render: (r) => (
              <Checkbox
                checked={r.isAthenaBilled}
                onChange={(e) => save(r, { isAthenaBilled: e.target.checked })}
                slotProps={{ input: { 'data-testid': `ef-billed-${r.requestType}`, 'aria-label': `Bill ${enumLabel(r.requestType)} to EHR` } as any }}
              />
            ),
          },
        ]}
        rows={rows}
        rowKey={(r) => r.requestType}
        rowProps={(r) => ({ 'data-testid': `ef-row-${r.requestType}` })}
      />
    </Box>
  );
}
