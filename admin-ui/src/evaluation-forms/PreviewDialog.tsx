import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { QuestionnaireItem } from '@crisis/forms/core';
import { answerProblemsInBrowser, splitProblems } from '../evaluations/answerProblems';
import { QuestionnaireForm } from '../evaluations/QuestionnaireForm';

/**
 * The preview modal (spec 02 §2): the questionnaire as the provider will get it — the real
 * react-jsonschema-form with the compiled schema, conditions showing and hiding questions as
 * answers change — and a check of the answers with the completion rules.
 */
export function PreviewDialog({ name, items, onClose }: { name: string; items: readonly QuestionnaireItem[]; onClose: () => void }) {
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const check = () => setErrors(splitProblems(answerProblemsInBrowser(items, answers, false)).questions);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="preview-dialog">
      <DialogTitle>Preview{name.trim() ? `: ${name.trim()}` : ''}</DialogTitle>
      <DialogContent dividers>
        {items.length === 0 ? (
          <Typography color="text.secondary">The form has no questions yet.</Typography>
        ) : (
          <QuestionnaireForm
            items={items}
            answers={answers}
            errors={errors ?? undefined}
            onChange={(next) => {
              setAnswers(next);
              setErrors(null);
            }}
            testId="preview-questionnaire"
          />
        )}
        {errors && Object.keys(errors).length === 0 && (
          <Box sx={{ mt: 2 }}>
            <Alert severity="success" data-testid="preview-check-ok">
              These answers would complete the evaluation.
            </Alert>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => {
            setAnswers({});
            setErrors(null);
          }} data-testid="preview-clear">
          Clear answers
        </Button>
        <Button onClick={check} data-testid="preview-check">
          Check answers
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="preview-close">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
