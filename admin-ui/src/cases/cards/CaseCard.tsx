import { useState, type ReactNode } from 'react';
import { useNotify } from 'react-admin';
import { Button, Card, CardContent, CardHeader, CircularProgress, Typography } from '@mui/material';
import type { SchemaName } from '@crisis/forms/validators';
import type { AppDataProvider } from '../../data/dataProvider';
import { useCaseCommand } from '../../data/query';
import { schemaProblems } from '../page/dialogs';
import { useCaseErrors } from '../page/useCaseErrors';
import type { CaseDetails } from '../types';

/** The title button of a card (Add, Edit, Upload…), with its test id. */
export interface CardAction {
  label: string;
  testId: string;
  onClick: () => void;
}

/**
 * The shell every case-page card shares: a titled card with its title actions, the load error,
 * the empty text when there is nothing to show, the content and the card's dialogs.
 */
export function CaseCard(props: {
  title: ReactNode;
  testId: string;
  /** A title button, or any title content; nothing when null or false. */
  action?: CardAction | ReactNode;
  error?: string | null;
  /** A spinner while the first load is under way. */
  loading?: boolean;
  /** The text shown instead of the content when `empty`. */
  emptyText?: string;
  empty?: boolean;
  variant?: 'outlined' | 'elevation';
  /** Header in h6 with the content closer to it (the wide cards of the main column). */
  dense?: boolean;
  children?: ReactNode;
  /** The card's dialogs, rendered after the content. */
  dialogs?: ReactNode;
}) {
  const { action } = props;
  const isAction = (a: unknown): a is CardAction => !!a && typeof a === 'object' && 'onClick' in a && 'label' in a;
  return (
    <Card variant={props.variant} data-testid={props.testId}>
      <CardHeader
        title={props.title}
        titleTypographyProps={props.dense ? { variant: 'h6' } : undefined}
        action={
          isAction(action) ? (
            <Button onClick={action.onClick} data-testid={action.testId}>
              {action.label}
            </Button>
          ) : (
            action || null
          )
        }
      />
      <CardContent sx={props.dense ? { pt: 0 } : undefined}>
        {props.error ? <Typography color="error">{props.error}</Typography> : null}
        {props.loading && !props.error ? <CircularProgress size={20} /> : null}
        {props.empty ? <Typography color="text.secondary">{props.emptyText}</Typography> : null}
        {props.children}
      </CardContent>
      {props.dialogs}
    </Card>
  );
}

/**
 * What a card does to change its case: `run` sends a command (the toast `success` once it is
 * done, the card's parts fetched again), `submit` checks the payload against the shared schema
 * first. Field errors of either land in `problems`; the case-level ones in the card's dialog.
 */
export function useCardCommands(caseRecord: CaseDetails, onChanged: () => void, parts: string[], options: { refreshOnError?: boolean } = {}) {
  const notify = useNotify();
  const errors = useCaseErrors(onChanged);
  const command = useCaseCommand(caseRecord.id, parts);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const run = async (call: (dp: AppDataProvider) => Promise<unknown>, success: string): Promise<boolean> => {
    try {
      await command.run(call);
      notify(success, { type: 'success' });
      return true;
    } catch (e) {
      const fields = errors.handle(e);
      if (fields) setProblems(fields);
      if (options.refreshOnError) void command.refresh();
      return false;
    }
  };
  const submit = async (schema: SchemaName, payload: unknown, call: (dp: AppDataProvider) => Promise<unknown>, success: string) => {
    const found = await schemaProblems(schema, payload);
    setProblems(found);
    if (Object.keys(found).length) return false;
    return run(call, success);
  };
  return { run, submit, problems, setProblems, busy: command.busy, handle: errors.handle, dialog: errors.dialog };
}
