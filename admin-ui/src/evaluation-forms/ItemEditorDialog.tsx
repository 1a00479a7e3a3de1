import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  FormHelperText,
  IconButton,
  MenuItem,
  Radio,
  RadioGroup,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  MEDICAL_INFORMATION_QUESTION_FIELDS,
  MEDICAL_INFORMATION_QUESTION_FIELD_NAMES,
  MIN_OPTIONS,
  isQuestion,
  optionKey,
  questionName,
  questionnaireProblems,
  withItem,
  withType,
  type MedicalInformationQuestionField,
  type QuestionCondition,
  type QuestionItem,
  type QuestionnaireItem,
} from '@crisis/forms/core';
import { ActionDialog } from '../common/ActionDialog';
import { TYPE_LABEL, droppedConditions, itemPath, systemFieldLabel } from './questionnaireText';

type Draft = QuestionnaireItem;
const TYPES: QuestionnaireItem['type'][] = ['text', 'radio', 'checkbox', 'heading'];

/** A blank question of `type` (a radio starts with two blank options, a checkbox with one). */
export function newQuestion(type: QuestionItem['type'] = 'radio'): QuestionItem {
  const blank: QuestionItem = { type: 'text', name: '', label: '', required: true, kind: 'general', conditions: null };
  return type === 'text' ? blank : (withType([blank], '', type)[0] as QuestionItem);
}

/**
 * The questionnaire item editor (spec 02 §2 "Questionnaire item editor (modal)", §4, §5): kind
 * (general or medical information with its system field, which fixes the type and the answers),
 * type (a change resets the options and sets required), label, required, options (unique labels,
 * remove disabled at the minimum), and the conditions that show the question (a choice question
 * above it and one of its answers). The rules are forms/' questionnaireProblems on the whole
 * questionnaire as it would be; what the change would take away from other questions' conditions
 * is said before saving.
 */
export function ItemEditorDialog({
  items,
  index,
  initial,
  onSave,
  onClose,
}: {
  items: readonly QuestionnaireItem[];
  /** The item's place; null for a new one (added at the end). */
  index: number | null;
  initial: QuestionnaireItem;
  onSave: (item: QuestionnaireItem) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [checked, setChecked] = useState(false);
  const place = index ?? items.length;
  const question = isQuestion(draft) ? draft : null;
  const previousName = isQuestion(initial) && initial.name ? initial.name : null;

  /** The item as it would be saved, its name settled (spec 02 §3): the system field, the name it has, or one made from the label. */
  const candidate = useMemo<Draft>(() => {
    if (!isQuestion(draft)) return { type: 'heading', label: draft.label };
    const keepsName = draft.kind === 'general' && isQuestion(initial) && initial.kind === 'general' && !!initial.name;
    const name = draft.kind === 'medicalInformation' ? (draft.system ?? '') : keepsName ? (initial as QuestionItem).name : questionName(draft.label);
    return { ...draft, name, conditions: draft.conditions?.items.length ? draft.conditions : null, ...(draft.type === 'text' ? { options: undefined } : {}) };
  }, [draft, initial]);
  const after = useMemo(() => withItem([...items], index, candidate), [items, index, candidate]);
  const problems = useMemo(() => {
    const mine: Record<string, string> = {};
    for (const p of questionnaireProblems(after)) {
      const at = itemPath(p.field);
      if (at?.index === place) mine[at.rest] ??= p.message;
    }
    return mine;
  }, [after, place]);
  const dropped = useMemo(
    () => droppedConditions(items, after, { before: previousName, after: isQuestion(candidate) ? candidate.name : null }),
    [items, after, previousName, candidate],
  );
  const error = (path: string) => (checked ? problems[path] : undefined);

  const set = (patch: Partial<QuestionItem>) => setDraft((d) => ({ ...(d as QuestionItem), ...patch }));
  const setType = (type: QuestionnaireItem['type']) => {
    if (type === draft.type) return;
    if (type === 'heading') return setDraft({ type: 'heading', label: draft.label });
    const base: QuestionItem = question ?? { ...newQuestion('text'), label: draft.label };
    // forms/' move: new options (two blank for a radio, one for a checkbox), required.
    setDraft(withType([base], base.name, type)[0]);
  };
  const setSystem = (system: MedicalInformationQuestionField) => {
    const field = MEDICAL_INFORMATION_QUESTION_FIELDS[system];
    set({
      system,
      type: field.type,
      required: true,
      options: 'options' in field ? field.options.map((o) => ({ ...o })) : undefined,
      label: question?.label?.trim() ? question.label : field.label,
    });
  };
  const setKind = (kind: QuestionItem['kind']) => {
    if (!question || kind === question.kind) return;
    if (kind === 'general') set({ kind, system: null });
    else set({ kind, system: null, options: question.type === 'text' ? undefined : question.options });
  };

  // Conditions: a choice question above this one, and one of its answers.
  const above = items.slice(0, place).filter((i): i is QuestionItem => isQuestion(i) && (i.type === 'radio' || i.type === 'checkbox'));
  const conditions = question?.conditions?.items ?? [];
  const setConditions = (next: QuestionCondition[]) => set({ conditions: next.length ? { kind: 'showIfAny', items: next } : null });
  const usedSystems = new Set(items.filter((i, n) => n !== index && isQuestion(i) && i.system).map((i) => (i as QuestionItem).system));

  const save = () => {
    setChecked(true);
    if (Object.keys(problems).length) return;
    onSave(candidate);
  };

  const options = question?.options ?? [];
  const min = question && (question.type === 'radio' || question.type === 'checkbox') ? MIN_OPTIONS[question.type] : 0;
  const fixed = question?.kind === 'medicalInformation';
  return (
    <ActionDialog
      title={index === null ? (question ? 'Add question' : 'Add heading') : question ? 'Edit question' : 'Edit heading'}
      testId="item-editor"
      onClose={onClose}
      action={{ label: index === null ? 'Add' : 'Apply', testId: 'item-editor-save', onClick: save }}
      cancelTestId="item-editor-cancel"
      maxWidth="md"
      fullWidth
      dividers
      contentSx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      {question && (
        <Box>
          <Typography variant="body2" color="text.secondary">
            Kind
          </Typography>
          <RadioGroup row value={question.kind} onChange={(e) => setKind(e.target.value as QuestionItem['kind'])} data-testid="item-kind">
            <FormControlLabel value="general" control={<Radio />} label="General" />
            <FormControlLabel value="medicalInformation" control={<Radio />} label="Medical information" />
          </RadioGroup>
          {error('kind') && <FormHelperText error>{error('kind')}</FormHelperText>}
        </Box>
      )}
      {question?.kind === 'medicalInformation' && (
        <TextField
          select
          size="small"
          label="System field *"
          value={question.system ?? ''}
          onChange={(e) => setSystem(e.target.value as MedicalInformationQuestionField)}
          error={!!error('system')}
          helperText={error('system') ?? 'The case’s medical information this question reads and fills; it fixes the type and the answers.'}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'item-system' } as any }}
        >
          {MEDICAL_INFORMATION_QUESTION_FIELD_NAMES.map((f) => (
            <MenuItem key={f} value={f} disabled={usedSystems.has(f)}>
              {systemFieldLabel(f)}
              {usedSystems.has(f) ? ' (used by another question)' : ''}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label="Type"
        value={draft.type}
        onChange={(e) => setType(e.target.value as QuestionnaireItem['type'])}
        disabled={fixed || (index !== null && !question)}
        error={!!error('type')}
        helperText={error('type') ?? (fixed ? 'Fixed by the system field' : question ? 'Changing the type resets the answers and makes the question required' : undefined)}
        SelectProps={{ SelectDisplayProps: { 'data-testid': 'item-type' } as any }}
      >
        {TYPES.filter((t) => t !== 'heading' || index === null || !question).map((t) => (
          <MenuItem key={t} value={t}>
            {TYPE_LABEL[t]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={question ? 'Question *' : 'Heading *'}
        multiline
        minRows={1}
        value={draft.label}
        onChange={(e) => setDraft((d) => ({ ...d, label: e.target.value }))}
        error={!!error('label')}
        helperText={error('label')}
        inputProps={{ 'data-testid': 'item-label', maxLength: 6000 }}
      />
      {question && (
        <FormControlLabel
          control={<Switch checked={question.required} onChange={(e) => set({ required: e.target.checked })} slotProps={{ input: { 'data-testid': 'item-required' } as any }} />}
          label="Required"
        />
      )}
      {question && question.type !== 'text' && (
        <Box data-testid="item-options">
          <Typography variant="subtitle2">Answers</Typography>
          {options.map((o, j) => (
            <Box key={o.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}>
              <TextField
                size="small"
                fullWidth
                label={`Answer ${j + 1} *`}
                value={o.label}
                disabled={fixed}
                onChange={(e) => set({ options: options.map((x, k) => (k === j ? { ...x, label: e.target.value } : x)) })}
                error={!!error(`options.${j}.label`) || !!error(`options.${j}.key`)}
                helperText={error(`options.${j}.label`) ?? error(`options.${j}.key`)}
                inputProps={{ 'data-testid': `item-option-${j}`, maxLength: 256 }}
              />
              {!fixed && (
                <Tooltip title={options.length <= min ? `At least ${min} answer${min > 1 ? 's' : ''}` : 'Remove this answer'}>
                  <span>
                    <IconButton
                      aria-label={`Remove answer ${j + 1}`}
                      disabled={options.length <= min}
                      onClick={() => set({ options: options.filter((_, k) => k !== j) })}
                      data-testid={`item-option-remove-${j}`}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              )}
            </Box>
          ))}
          {error('options') && <FormHelperText error>{error('options')}</FormHelperText>}
          {!fixed && (
            <Button size="small" startIcon={<AddIcon />} sx={{ mt: 1 }} onClick={() => set({ options: [...options, { key: optionKey(options), label: '' }] })} data-testid="item-option-add">
              Add answer
            </Button>
          )}
        </Box>
      )}
      {question && (
        <Box data-testid="item-conditions">
          <Typography variant="subtitle2">Show this question</Typography>
          <Typography variant="body2" color="text.secondary">
            {conditions.length ? 'only when any of these answers is given:' : 'always.'}
          </Typography>
          {conditions.map((c, j) => {
            const target = above.find((q) => q.name === c.question);
            return (
              <Box key={j} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }} data-testid={`item-condition-${j}`}>
                <TextField
                  select
                  size="small"
                  label="Question"
                  value={target ? c.question : ''}
                  onChange={(e) => setConditions(conditions.map((x, k) => (k === j ? { question: e.target.value, answer: '' } : x)))}
                  error={!!error(`conditions.items.${j}.question`)}
                  helperText={error(`conditions.items.${j}.question`)}
                  sx={{ flex: 3 }}
                  SelectProps={{ SelectDisplayProps: { 'data-testid': `item-condition-question-${j}` } as any }}
                >
                  {above.map((q) => (
                    <MenuItem key={q.name} value={q.name}>
                      {q.label || '(no label)'}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  size="small"
                  label="Answer"
                  value={target?.options?.some((o) => o.key === c.answer) ? c.answer : ''}
                  onChange={(e) => setConditions(conditions.map((x, k) => (k === j ? { ...x, answer: e.target.value } : x)))}
                  disabled={!target}
                  error={!!error(`conditions.items.${j}.answer`)}
                  helperText={error(`conditions.items.${j}.answer`)}
                  sx={{ flex: 2 }}
                  SelectProps={{ SelectDisplayProps: { 'data-testid': `item-condition-answer-${j}` } as any }}
                >
                  {(target?.options ?? []).map((o) => (
                    <MenuItem key={o.key} value={o.key}>
                      {o.label || '(blank answer)'}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton aria-label="Remove condition" onClick={() => setConditions(conditions.filter((_, k) => k !== j))} data-testid={`item-condition-remove-${j}`}>
                  <DeleteIcon />
                </IconButton>
              </Box>
            );
          })}
          <Tooltip title={above.length ? '' : 'A condition needs a choice question above this one'}>
            <span>
              <Button
                size="small"
                startIcon={<AddIcon />}
                sx={{ mt: 1 }}
                disabled={!above.length}
                onClick={() => setConditions([...conditions, { question: '', answer: '' }])}
                data-testid="item-condition-add"
              >
                Add condition
              </Button>
            </span>
          </Tooltip>
        </Box>
      )}
      {checked && problems.name && !problems.system && <Alert severity="error">{problems.name}</Alert>}
      {dropped.length > 0 && (
        <Alert severity="warning" data-testid="item-editor-drops">
          This change removes conditions of other questions:
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {dropped.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </Alert>
      )}
    </ActionDialog>
  );
}
