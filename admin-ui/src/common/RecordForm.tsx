import { Button } from '@mui/material';
import { SaveButton, Toolbar, useNotify, useRedirect, type RedirectionSideEffect } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { fieldErrorsOf } from '../billing-codes/codedFields';

/** Save and Cancel under a record form (`${testId}-save`, `${testId}-cancel`); Cancel goes back to `back`. */
export function SaveCancelToolbar({ testId, back }: { testId: string; back: string }) {
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton label="Save" data-testid={`${testId}-save`} alwaysEnable />
      <Button variant="outlined" onClick={() => navigate(back)} data-testid={`${testId}-cancel`}>
        Cancel
      </Button>
    </Toolbar>
  );
}

/**
 * The mutation options of a create or edit page: the toast `success`, then the redirection
 * (to the list, or to the saved record's edit page). With `toastErrors`, a failure that is not
 * a field error (INV, INV.NOT.UNIQ: the form shows those on the fields) is a toast.
 */
export function useSavedThen(success: string, redirectTo: RedirectionSideEffect, resource: string, toastErrors = false) {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(success, { type: 'success' });
      redirect(redirectTo, resource, data.id);
    },
    ...(toastErrors && {
      onError: (error: unknown) => {
        if (!fieldErrorsOf(error)) notify((error as Error).message, { type: 'error' });
      },
    }),
  };
}
