import { useMemo, useState, type DragEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useNotify } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/Edit';
import PreviewIcon from '@mui/icons-material/Visibility';
import {
  DEFAULT_MESSAGES,
  ErrorCode,
  evaluationFormRules,
  isQuestion,
  withItem,
  withoutQuestion,
  type EvaluationFormRecord,
  type FieldError,
  type QuestionnaireItem,
} from '@crisis/forms/core';
import { codeOf } from '../billing-codes/codedFields';
import { ConfirmDialog, schemaProblems } from '../cases/page/dialogs';
import { PageTitle } from '../common/PageTitle';
import { useAppData, useAppQuery } from '../data/query';
import { useLeaveGuard } from '../placement/call-log/useLeaveGuard';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
import { ItemEditorDialog, newQuestion } from './ItemEditorDialog';
import { PreviewDialog } from './PreviewDialog';
import { TYPE_LABEL, conditionsSummary, droppedConditions, itemPath, moved, systemFieldLabel } from './questionnaireText';

/** /evaluation-forms/create */
export function EvaluationFormCreate() {
  return <FormEditor record={null} />;
}

/** /evaluation-forms/:id */
export function EvaluationFormEdit() {
  const { id } = useParams();
  const formId = Number(id);
  const valid = Number.isInteger(formId) && formId > 0;
  const load = useAppQuery(['evaluationForm', formId], (dp) => dp.getOne<EvaluationFormRecord>('evaluation-forms', { id: formId }).then((r) => r.data), {
    enabled: valid,
    gcTime: 0,
  });
  if (!valid || codeOf(load.failure) === ErrorCode.NotFound) return <NotFoundPage />;
  if (load.error) return <Alert severity="error">{load.error}</Alert>;
  if (!load.data) return <CircularProgress />;
  return <FormEditor key={load.data.id} record={load.data} />;
}

type Editing = { index: number | null; item: QuestionnaireItem };

/**
 * The form editor (spec 02 §2 "/evaluation-forms/create, /evaluation-forms/{id}", §4
 * "Questionnaire editor", §5): the name (a default form's is locked), the items — drag one to
 * reorder it, or move it up and down from the keyboard — each edited in the item modal, the
 * preview, and Save with the API's field errors shown where they belong. Conditions a change
 * takes away are said, and a move that would put a question above the one it depends on is refused.
 */
function FormEditor({ record }: { record: EvaluationFormRecord | null }) {
  const dp = useAppData();
  const notify = useNotify();
  const navigate = useNavigate();
  const [name, setName] = useState(record?.name ?? '');
  const [items, setItems] = useState<QuestionnaireItem[]>(record?.options.items ?? []);
  const [dirty, setDirty] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [preview, setPreview] = useState(false);
  const [notices, setNotices] = useState<{ severity: 'warning' | 'info'; lines: string[] } | null>(null);
  const [problems, setProblems] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const [leaving, setLeaving] = useState<(() => void) | null>(null);
  const bypass = useLeaveGuard(dirty, (proceed) => setLeaving(() => proceed));
  const isDefault = !!record?.isDefault;

  const change = (next: QuestionnaireItem[], lines: string[] = [], severity: 'warning' | 'info' = 'warning') => {
    setItems(next);
    setDirty(true);
    setProblems([]);
    setNotices(lines.length ? { severity, lines } : null);
  };

  const byItem = useMemo(() => {
    const out = new Map<number, string[]>();
    for (const p of problems) {
      const at = itemPath(p.field);
      if (at) out.set(at.index, [...(out.get(at.index) ?? []), p.message]);
    }
    return out;
  }, [problems]);
  const nameError = problems.find((p) => p.field === 'name')?.message;
  const listError = problems.find((p) => p.field === 'options.items' || p.field === 'options')?.message;

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const result = moved(items, from, to);
    if ('refused' in result) return setNotices({ severity: 'info', lines: [result.refused] });
    change(result.items);
  };
  const remove = (index: number) => {
    const item = items[index];
    const next = isQuestion(item) ? withoutQuestion(items, item.name) : items.filter((_, i) => i !== index);
    change(next, droppedConditions(items, next));
    setRemoving(null);
  };
  const dependents = (index: number) => droppedConditions(items, isQuestion(items[index]) ? withoutQuestion(items, (items[index] as { name: string }).name) : items);

  const save = async () => {
    const body = { name: name.trim(), options: { items } };
    const found = [...Object.entries(await schemaProblems('evaluationForm', body)).map(([field, message]) => ({ field, key: 'invalid', message })), ...evaluationFormRules(body)];
    setProblems(found);
    if (found.length) return notify('The form has problems: they are marked below', { type: 'error' });
    setSaving(true);
    try {
      if (record) await dp.update('evaluation-forms', { id: record.id, data: body, previousData: record });
      else await dp.create('evaluation-forms', { data: body });
      notify(record ? 'Form updated' : 'Form created', { type: 'success' });
      bypass.current = true;
      navigate('/evaluation-forms');
    } catch (e) {
      const code = codeOf(e);
      const fields = ((e as { fields?: FieldError[] }).fields ?? []) as FieldError[];
      // Spec 02 §8: a taken name is "not unique name" on the field.
      if (code === ErrorCode.NotUnique) setProblems([{ field: 'name', key: 'notUnique', message: 'Not unique name' }]);
      else if (fields.length) {
        setProblems(fields);
        notify(DEFAULT_MESSAGES[code ?? ''] ?? (e as Error).message, { type: 'error' });
      } else notify((e as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const dragProps = (i: number) => ({
    draggable: true,
    onDragStart: (e: DragEvent) => {
      setDragFrom(i);
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(i));
    },
    onDragOver: (e: DragEvent) => {
      if (dragFrom === null) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setDragOver(i);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      if (dragFrom !== null) move(dragFrom, i);
      setDragFrom(null);
      setDragOver(null);
    },
    onDragEnd: () => {
      setDragFrom(null);
      setDragOver(null);
    },
  });

  return (
    <Box data-testid="evaluation-form-editor">
      <PageTitle title={record ? record.name : 'New evaluation form'}>
        {record && <Chip size="small" label={isDefault ? 'Default' : 'Custom'} color={isDefault ? 'primary' : 'default'} data-testid="evaluation-form-kind" />}
      </PageTitle>
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextField
            label="Name *"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setDirty(true);
              setProblems((ps) => ps.filter((p) => p.field !== 'name'));
            }}
            disabled={isDefault}
            error={!!nameError}
            helperText={nameError ?? (isDefault ? 'A default form keeps its name; clone it to make a form of your own.' : undefined)}
            sx={{ flex: '1 1 360px' }}
            inputProps={{ 'data-testid': 'evaluation-form-name', maxLength: 256 }}
          />
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', pt: 1, alignItems: 'center' }}>
            <Button startIcon={<PreviewIcon />} onClick={() => setPreview(true)} data-testid="evaluation-form-preview">
              Preview
            </Button>
            <Button
              variant="outlined"
              onClick={() => navigate('/evaluation-forms')}
              disabled={saving}
              data-testid="evaluation-form-cancel"
            >
              Cancel
            </Button>
            <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="evaluation-form-save">
              Save
            </Button>
          </Box>
        </CardContent>
      </Card>
      {notices && (
        <Alert severity={notices.severity} onClose={() => setNotices(null)} sx={{ mb: 2 }} data-testid="evaluation-form-notice">
          {notices.severity === 'warning' ? 'Conditions removed with this change:' : null}
          <ul style={{ margin: notices.severity === 'warning' ? '4px 0 0' : 0, paddingLeft: notices.severity === 'warning' ? 20 : 0, listStyle: notices.severity === 'warning' ? undefined : 'none' }}>
            {notices.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </Alert>
      )}
      {listError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {listError}
        </Alert>
      )}
      <Card variant="outlined">
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              Questions
            </Typography>
            <Button startIcon={<AddIcon />} onClick={() => setEditing({ index: null, item: { type: 'heading', label: '' } })} data-testid="evaluation-form-add-heading">
              Add heading
            </Button>
            <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing({ index: null, item: newQuestion('radio') })} data-testid="evaluation-form-add-question">
              Add question
            </Button>
          </Box>
          {items.length === 0 && <Typography color="text.secondary">No questions yet: add a heading or a question.</Typography>}
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="evaluation-form-items">
            {items.map((item, i) => {
              const errors = byItem.get(i);
              const summary = conditionsSummary(items, item);
              return (
                <Box
                  component="li"
                  key={isQuestion(item) ? item.name : `heading-${i}-${item.label}`}
                  {...dragProps(i)}
                  data-testid={`evaluation-form-item-${i}`}
                  data-name={isQuestion(item) ? item.name : undefined}
                  sx={{
                    display: 'flex',
                    alignItems: 'flex-start',
                    gap: 1,
                    p: 1,
                    mb: 0.5,
                    border: 1,
                    borderRadius: 1,
                    borderColor: errors ? 'error.main' : dragOver === i && dragFrom !== i ? 'primary.main' : 'divider',
                    bgcolor: item.type === 'heading' ? 'action.hover' : 'background.paper',
                    opacity: dragFrom === i ? 0.5 : 1,
                    ml: summary ? 3 : 0,
                  }}
                >
                  <Tooltip title="Drag to reorder">
                    <DragIndicatorIcon sx={{ cursor: 'grab', color: 'text.secondary', mt: 0.5 }} aria-hidden />
                  </Tooltip>
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Typography sx={{ fontWeight: item.type === 'heading' ? 600 : 400, wordBreak: 'break-word' }} data-testid="evaluation-form-item-label">
                      {item.label || <em>(no label)</em>}
                    </Typography>
                    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5, alignItems: 'center' }}>
                      <Chip size="small" variant="outlined" label={TYPE_LABEL[item.type]} />
                      {isQuestion(item) && item.required && <Chip size="small" label="Required" />}
                      {isQuestion(item) && item.kind === 'medicalInformation' && <Chip size="small" color="info" variant="outlined" label={`Medical information: ${systemFieldLabel(item.system ?? '')}`} />}
                      {isQuestion(item) && item.options?.length ? (
                        <Typography variant="caption" color="text.secondary">
                          {item.options.map((o) => o.label || '(blank)').join(' · ')}
                        </Typography>
                      ) : null}
                    </Box>
                    {summary && (
                      <Typography variant="caption" color="primary" display="block" data-testid="evaluation-form-item-condition">
                        {summary}
                      </Typography>
                    )}
                    {errors?.map((m) => (
                      <Typography key={m} variant="caption" color="error" display="block" data-testid="evaluation-form-item-error">
                        {m}
                      </Typography>
                    ))}
                  </Box>
                  <IconButton size="small" aria-label="Move up" disabled={i === 0} onClick={() => move(i, i - 1)} data-testid="evaluation-form-item-up">
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton size="small" aria-label="Move down" disabled={i === items.length - 1} onClick={() => move(i, i + 1)} data-testid="evaluation-form-item-down">
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton size="small" aria-label="Edit" onClick={() => setEditing({ index: i, item })} data-testid="evaluation-form-item-edit">
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton size="small" aria-label="Delete" onClick={() => setRemoving(i)} data-testid="evaluation-form-item-delete">
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Box>
              );
            })}
          </Box>
        </CardContent>
      </Card>
      {editing && (
        <ItemEditorDialog
          items={items}
          index={editing.index}
          initial={editing.item}
          onClose={() => setEditing(null)}
          onSave={(item) => {
            const next = withItem(items, editing.index, item);
            const previous = editing.index === null ? null : items[editing.index];
            change(next, droppedConditions(items, next, { before: previous && isQuestion(previous) ? previous.name : null, after: isQuestion(item) ? item.name : null }));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing !== null && isQuestion(items[removing]) ? 'Delete the question' : 'Delete the heading'}
        message={
          removing === null ? (
            ''
          ) : (
            <>
              Delete “{items[removing].label || '(no label)'}”?
              {dependents(removing).length > 0 && (
                <Box component="ul" sx={{ mb: 0 }} data-testid="evaluation-form-delete-drops">
                  {dependents(removing).map((d) => (
                    <li key={d}>{d}</li>
                  ))}
                </Box>
              )}
            </>
          )
        }
        confirmLabel="Delete"
        testId="evaluation-form-delete"
        onConfirm={() => removing !== null && remove(removing)}
        onClose={() => setRemoving(null)}
      />
      <ConfirmDialog
        open={!!leaving}
        title="Leave without saving?"
        message="The changes to this form are not saved."
        confirmLabel="Leave"
        testId="evaluation-form-leave"
        onConfirm={() => {
          const go = leaving;
          setLeaving(null);
          go?.();
        }}
        onClose={() => setLeaving(null)}
      />
      {preview && <PreviewDialog name={name} items={items} onClose={() => setPreview(false)} />}
      {saving && <CircularProgress size={20} sx={{ position: 'fixed', bottom: 16, right: 16 }} />}
    </Box>
  );
}
