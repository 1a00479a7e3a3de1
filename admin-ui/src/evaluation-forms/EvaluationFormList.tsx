import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { CreateButton, Datagrid, FunctionField, SearchInput, TopToolbar, useNotify, useRefresh } from 'react-admin';
import { Box, Button, Chip } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { ErrorCode, type EvaluationFormRecord } from '@crisis/forms/core';
import { codeOf } from '../billing-codes/codedFields';
import { useConfirmation } from '../common/ConfirmDialog';
import { InfoDialog, type InfoDialogContent } from '../common/InfoDialog';
import { FoundTotal, ReferenceList } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';
import { useAppData } from '../data/query';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Search by name" sx={{ minWidth: 300 }} {...inputTestId('evaluation-form-filter-q')} />];

/** The facilities' names of a refused removal (its payload), whatever shape the error arrived in. */
const facilitiesOf = (e: unknown): string[] => {
  const payload = (e as { payload?: unknown; body?: { payload?: unknown } })?.payload ?? (e as { body?: { payload?: unknown } })?.body?.payload;
  return Array.isArray(payload) ? payload.map(String) : [];
};

function Actions({ form, onInUse }: { form: EvaluationFormRecord; onInUse: (c: InfoDialogContent) => void }) {
  const dp = useAppData();
  const notify = useNotify();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const confirmation = useConfirmation();
  const [busy, setBusy] = useState(false);
  const clone = async () => {
    setBusy(true);
    try {
      const copy = await dp.cloneEvaluationForm(form.id);
      notify('Form cloned', { type: 'success' });
      navigate(`/evaluation-forms/${copy.id}`);
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    try {
      await dp.delete('evaluation-forms', { id: form.id, previousData: form });
      notify('Form removed', { type: 'success' });
      refresh();
    } catch (e) {
      // Spec 02 §8: a form that facilities use is not removed; the dialog names them.
      if (codeOf(e) === ErrorCode.DeleteEvaluationFormAssignedToFacilities)
        onInUse({
          title: 'The form is in use',
          message: `“${form.name}” is the evaluation form of these facilities. Choose another form for them first (facility page, evaluation forms tab).`,
          items: facilitiesOf(e),
        });
      else notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      <Button size="small" component={Link} to={`/evaluation-forms/${form.id}`} startIcon={<EditIcon />} data-testid="evaluation-form-edit">
        Edit
      </Button>
      <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void clone()} disabled={busy} data-testid="evaluation-form-clone">
        Clone
      </Button>
      {!form.isDefault && (
        <Button
          size="small"
          color="error"
          startIcon={<DeleteIcon />}
          onClick={() => confirmation.ask({ title: 'Remove the form', message: `Remove “${form.name}”? Evaluations already answered on it keep their questions.`, onConfirm: remove })}
          data-testid="evaluation-form-remove"
        >
          Remove
        </Button>
      )}
      {confirmation.dialog}
    </Box>
  );
}

/** /evaluation-forms (spec 02 §2 "Evaluation forms list", ITP admin): name, default or custom, edit / clone / remove; name ascending. */
export function EvaluationFormList() {
  const [inUse, setInUse] = useState<InfoDialogContent | null>(null);
  return (
    <ReferenceList
      title="Evaluation forms"
      filters={filters}
      sort={{ field: 'name', order: 'ASC' }}
      actions={
        <TopToolbar sx={{ alignItems: 'center' }}>
          <FoundTotal />
          <CreateButton label="Add form" data-testid="evaluation-form-add" />
        </TopToolbar>
      }
      after={<InfoDialog content={inUse} onClose={() => setInUse(null)} />}
    >
      <Datagrid bulkActionButtons={false} rowClick={false} data-testid="evaluation-form-table">
        <FunctionField
          source="name"
          label="Name"
          render={(r: EvaluationFormRecord) => (
            <Link to={`/evaluation-forms/${r.id}`} data-testid="evaluation-form-link">
              {r.name}
            </Link>
          )}
        />
        <FunctionField
          source="isDefault"
          label="Type"
          render={(r: EvaluationFormRecord) => <Chip size="small" label={r.isDefault ? 'Default' : 'Custom'} color={r.isDefault ? 'primary' : 'default'} />}
        />
        <FunctionField label="" sortable={false} render={(r: EvaluationFormRecord) => <Actions form={r} onInUse={setInUse} />} />
      </Datagrid>
    </ReferenceList>
  );
}
