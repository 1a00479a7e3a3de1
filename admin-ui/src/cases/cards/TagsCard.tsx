import { useState } from 'react';
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import { CaseStatus } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { keys, useAppQuery } from '../../data/query';
import { FormDialog } from '../page/dialogs';
import type { CaseCardProps } from '../types';
import { CaseCard, useCardCommands } from './CaseCard';

type Tag = { id: number; name: string };

/** The tags card (spec 01 §2, §6 Tags): chips; ITP admin, user and provider edit them while the case is open. */
export function TagsCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability } = useSession();
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'tags'), (dp) => dp.caseTags(caseRecord.id));
  // The case carries its tags too: both are fetched again after a change.
  const { run, problems, setProblems, busy, dialog } = useCardCommands(caseRecord, onChanged, ['tags', 'details']);
  const [editing, setEditing] = useState<Tag[] | null>(null);
  const canEdit = caseRecord.status !== CaseStatus.Closed && ability.can('update', 'CaseTag');

  const submit = async () => {
    if (!editing) return;
    if (await run((dp) => dp.setCaseTags(caseRecord.id, editing.map((t) => t.id)), 'Case updated')) setEditing(null);
  };
  const tags = data?.tags ?? caseRecord.tags ?? [];
  const open = () => {
    setProblems({});
    setEditing(tags);
  };

  return (
    <CaseCard
      title="Tags"
      testId="tags-card"
      action={canEdit && { label: 'Edit', testId: 'tags-edit', onClick: open }}
      error={error}
      empty={!tags.length}
      emptyText="No tags"
      dialogs={
        <>
          <FormDialog open={!!editing} title="Edit tags" testId="tags-dialog" busy={busy} onClose={() => setEditing(null)} onSubmit={submit}>
            <Autocomplete
              multiple
              options={data?.available ?? []}
              value={editing ?? []}
              onChange={(_e, value) => setEditing(value)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => (
                <TextField {...params} label="Tags" error={!!problems.tagIds} helperText={problems.tagIds} inputProps={{ ...params.inputProps, 'data-testid': 'tags-input' }} />
              )}
            />
          </FormDialog>
          {dialog}
        </>
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {tags.map((t) => (
          <Chip key={t.id} label={t.name} data-testid="tag-chip" />
        ))}
      </Box>
    </CaseCard>
  );
}
