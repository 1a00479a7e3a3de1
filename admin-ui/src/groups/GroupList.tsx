import { FunctionField, SearchInput, TextField } from 'react-admin';
import type { GroupOrganizationRecord } from '@crisis/forms/core';
import { activeOnlyFilter, ActiveChipField, ModalRecordList } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';
import { GroupDialog } from './GroupDialog';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Search by name" {...inputTestId('group-filter-q')} />, activeOnlyFilter];

/** /group-organizations (ITP admin): name search and active-only filter; add/edit in a modal. */
export function GroupList() {
  return (
    <ModalRecordList title="Group organizations" filters={filters} testId="group" addLabel="Add group" dialog={GroupDialog}>
      <TextField source="name" label="Name" />
      <FunctionField label="States" sortable={false} render={(r: GroupOrganizationRecord) => r.states.join(', ')} />
      <FunctionField label="Counties" sortable={false} render={(r: GroupOrganizationRecord) => r.counties.join(', ') || '—'} />
      <FunctionField label="Facilities" sortable={false} render={(r: GroupOrganizationRecord) => r.facilities.length} />
      <FunctionField label="MFA" sortable={false} render={(r: GroupOrganizationRecord) => (r.mfaEnabled ? 'On' : 'Off')} />
      <ActiveChipField source="isActive" label="Status" />
    </ModalRecordList>
  );
}
