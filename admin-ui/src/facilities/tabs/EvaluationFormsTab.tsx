import { useEffect, useState } from 'react';
import { Box, Button, Checkbox, MenuItem, Select, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { enumLabel, normalizeInput, type EvaluationFormLookup, type FacilityEvaluationFormRecord } from '@crisis/forms';
import { validatePayload } from '../../common/schemaValidation';
import { api } from '../../data/httpClient';
import { API_URL } from '../../data/dataProvider';
import { toFacilityPayload } from '../facilityPayload';
import type { FacilityRecord } from '../facilityTypes';
import { tabsApi } from './tabsApi';

/** The EHR department id is a field of the facility: saved by a PUT of the facility (spec 03 §7). */
function EhrDepartmentForm() {
  const record = useRecordContext<FacilityRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
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
      await api.put(`${API_URL}/facilities/${record.id}`, payload);
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
  const [forms, setForms] = useState<EvaluationFormLookup[]>([]);
  const [rows, setRows] = useState<FacilityEvaluationFormRecord[] | null>(null);
  useEffect(() => {
    tabsApi.evaluationForms().then(setForms, (e) => notify((e as Error).message, { type: 'error' }));
    tabsApi.facilityEvaluationForms(facilityId).then(setRows, (e) => notify((e as Error).message, { type: 'error' }));
  }, [facilityId, notify]);

  const save = async (row: FacilityEvaluationFormRecord, change: Partial<FacilityEvaluationFormRecord>) => {
    const next = { ...row, ...change };
    setRows((rs) => rs?.map((r) => (r.requestType === row.requestType ? next : r)) ?? rs);
    try {
      const saved = await tabsApi.saveFacilityEvaluationForm(facilityId, {
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
      <Table size="small" data-testid="ef-table">
        <TableHead>
          <TableRow>
            <TableCell>Request type</TableCell>
            <TableCell>Evaluation form</TableCell>
            <TableCell>Bill to EHR</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows && (
            <TableRow>
              <TableCell colSpan={3}>Loading…</TableCell>
            </TableRow>
          )}
          {rows?.map((r) => (
            <TableRow key={r.requestType} data-testid={`ef-row-${r.requestType}`}>
              <TableCell>{enumLabel(r.requestType)}</TableCell>
              <TableCell>
                <Select
                  size="small"
                  displayEmpty
                  value={r.evaluationFormId ?? ''}
                  onChange={(e) => save(r, { evaluationFormId: String(e.target.value) === '' ? null : Number(e.target.value) })}
                  sx={{ minWidth: 320 }}
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
              </TableCell>
              <TableCell>
                <Checkbox
                  checked={r.isAthenaBilled}
                  onChange={(e) => save(r, { isAthenaBilled: e.target.checked })}
                  slotProps={{ input: { 'data-testid': `ef-billed-${r.requestType}` } as any }}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
