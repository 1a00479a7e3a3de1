import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Autocomplete, Box, Button, Card, CardContent, CardHeader, Chip, TextField, Typography } from '@mui/material';
import { CaseStatus } from '@crisis/forms';
import { useSession } from '../../auth/session';
import { FormDialog } from '../page/dialogs';
import { useCaseErrors } from '../page/useCaseErrors';
import type { CaseCardProps } from '../types';
import { recordsApi, useRecords } from './records/recordsApi';

type Tag = { id: number; name: string };

/** The tags card (spec 01 §2, §6 Tags): chips; ITP admin, user and provider edit them while the case is open. */
export function TagsCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability } = useSession();
  const notify = useNotify();
  const errors = useCaseErrors(onChanged);
  const { data, error, reload } = useRecords(() => recordsApi.tags(caseRecord.id), [caseRecord.id]);
  const [editing, setEditing] = useState<Tag[] | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const canEdit = caseRecord.status !== CaseStatus.Closed && ability.can('update', 'CaseTag');

  const submit = async () => {
    if (!editing) return;
    setBusy(true);
    try {
      await recordsApi.setTags(caseRecord.id, editing.map((t) => t.id));
      notify('Case updated', { type: 'success' });
      setEditing(null);
      reload();
      onChanged();
    } catch (e) {
      const fields = errors.handle(e);
      if (fields) setProblem(fields.tagIds);
    } finally {
      setBusy(false);
    }
  };
  const tags = data?.tags ?? caseRecord.tags ?? [];

  return (
    <Card data-testid="tags-card">
      <CardHeader
        title="Tags"
        action={
          canEdit ? (
            <Button
              onClick={() => {
                setProblem(undefined);
                setEditing(tags);
              }}
              data-testid="tags-edit"
            >
              Edit
            </Button>
          ) : null
        }
      />
      <CardContent>
        {error ? <Typography color="error">{error}</Typography> : null}
        {!tags.length ? <Typography color="text.secondary">No tags</Typography> : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {tags.map((t) => (
            <Chip key={t.id} label={t.name} data-testid="tag-chip" />
          ))}
        </Box>
      </CardContent>
      <FormDialog open={!!editing} title="Edit tags" testId="tags-dialog" busy={busy} onClose={() => setEditing(null)} onSubmit={submit}>
        <Autocomplete
          multiple
          options={data?.available ?? []}
          value={editing ?? []}
          onChange={(_e, value) => setEditing(value)}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          renderInput={(params) => <TextField {...params} label="Tags" error={!!problem} helperText={problem} inputProps={{ ...params.inputProps, 'data-testid': 'tags-input' }} />}
        />
      </FormDialog>
      {errors.dialog}
    </Card>
  );
}
