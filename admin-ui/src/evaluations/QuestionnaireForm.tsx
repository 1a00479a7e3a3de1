import { useMemo } from 'react';
import { Box, Divider, FormLabel, Typography } from '@mui/material';
import Form, { Templates } from '@rjsf/mui';
import type { ErrorSchema, FieldProps, FieldTemplateProps, RJSFSchema, RegistryFieldsType, UiSchema } from '@rjsf/utils';
import { compileQuestionnaire, questionnaireUiSchema, type QuestionnaireItem } from '@crisis/forms/core';
import { questionnaireValidator, shownAnswers } from './answerProblems';

/** A heading of the questionnaire: a `type: 'null'` property whose title is the heading's label. */
function QuestionnaireHeading({ schema }: FieldProps) {
  return (
    <Box sx={{ mt: 1 }} data-testid="questionnaire-heading">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {schema.title}
      </Typography>
      <Divider />
    </Box>
  );
}

/** A question whose conditions do not hold: nothing on screen (its answer does not count either). */
function HiddenQuestion() {
  return null;
}

const FIELDS: RegistryFieldsType = { QuestionnaireHeading, HiddenQuestion };
const NO_DEFAULTS = { constAsDefaults: 'never', emptyObjectFields: 'skipDefaults' } as const;

const BaseFieldTemplate = Templates.FieldTemplate!;
/**
 * MUI's field template, inside a box that names the question (`question-<name>`) for the tests and
 * the page's anchors. A text question's label stands above its box, whole (inside an outlined
 * input a long question would be cut short).
 */
function QuestionFieldTemplate(props: FieldTemplateProps) {
  const name = props.id.replace(/^root_?/, '');
  if (!name) return <BaseFieldTemplate {...props} />;
  const textQuestion = !props.hidden && props.uiSchema?.['ui:widget'] === 'textarea';
  return (
    <Box data-testid={`question-${name}`} data-hidden={props.hidden ? 'true' : undefined}>
      {textQuestion && (
        <FormLabel htmlFor={props.id} required={props.required} error={!!props.rawErrors?.length} sx={{ display: 'block', mb: -0.5, color: 'text.primary', fontWeight: 500 }}>
          {props.label}
        </FormLabel>
      )}
      <BaseFieldTemplate {...props} />
    </Box>
  );
}

/**
 * The questionnaire as react-jsonschema-form renders it (spec 02 §5 "Dynamic question form"): the
 * schema compiled from the items by forms/ (the one the API validates with), the uiSchema of the
 * answers as they stand (questions whose conditions do not hold are hidden), headings as titles.
 * Every change drops the answers of the questions it hides, so what the form holds is what counts.
 * Validation is the caller's (liveValidate off): `errors` are shown on the questions.
 */
export function QuestionnaireForm({
  items,
  answers,
  onChange,
  errors,
  disabled = false,
  optional = false,
  testId = 'questionnaire',
}: {
  items: readonly QuestionnaireItem[];
  answers: Record<string, unknown>;
  onChange: (answers: Record<string, unknown>) => void;
  /** Problems per question name (from a completion attempt, a save, or a check in the browser). */
  errors?: Record<string, string>;
  disabled?: boolean;
  /** Every question optional (the document lives in the EHR): no required marks. */
  optional?: boolean;
  testId?: string;
}) {
  const compiled = useMemo(() => compileQuestionnaire(items, { draft: optional }), [items, optional]);
  const uiSchema = useMemo(() => {
    const ui = questionnaireUiSchema(items, compiled, answers) as Record<string, any>;
    for (const [name, entry] of Object.entries(ui)) {
      // A hidden question's wrapper takes no room either.
      if (entry?.['ui:field'] === 'HiddenQuestion') ui[name] = { ...entry, 'ui:widget': 'hidden' };
      // The template puts a text question's label above the box.
      else if (entry?.['ui:widget'] === 'textarea') ui[name] = { ...entry, 'ui:label': false };
      // rjsf resolves the `if`/`then` itself and marks a shown conditional question required: no second asterisk.
      if (ui[name]?.['ui:title']) {
        const { 'ui:title': _title, ...rest } = ui[name];
        ui[name] = rest;
      }
    }
    return { ...ui, 'ui:submitButtonOptions': { norender: true } } as UiSchema;
  }, [items, compiled, answers]);
  const extraErrors = useMemo(() => {
    if (!errors || !Object.keys(errors).length) return undefined;
    return Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, { __errors: [message] }])) as ErrorSchema;
  }, [errors]);
  return (
    <Box data-testid={testId} sx={{ '& .MuiFormControl-root > .MuiFormLabel-root': { color: 'text.primary', fontWeight: 500 } }}>
      <Form
        schema={compiled.schema as RJSFSchema}
        uiSchema={uiSchema}
        formData={answers}
        validator={questionnaireValidator}
        fields={FIELDS}
        templates={{ FieldTemplate: QuestionFieldTemplate }}
        extraErrors={extraErrors}
        showErrorList={false}
        noHtml5Validate
        // No answer the provider did not give: rjsf would otherwise default a choice to its first option (a const of its oneOf).
        experimental_defaultFormStateBehavior={NO_DEFAULTS}
        disabled={disabled}
        onChange={(e) => onChange(shownAnswers(items, (e.formData ?? {}) as Record<string, unknown>))}
      />
    </Box>
  );
}
