import { FunctionField, SearchInput, SelectInput, TextField } from 'react-admin';
import { REQUEST_TYPES, SOURCE_TYPES, enumLabel } from '@crisis/forms/core';
import { activeOnlyFilter, ActiveChipField, ModalRecordList } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';
import { BillingCodeDialog, sourceTypeLabel } from './BillingCodeDialog';

type Row = { id: number; code: string; description: string; sourceDivisionTypes: string[]; requestTypes: string[]; isActive: boolean };

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by code or description" sx={{ minWidth: 300 }} {...inputTestId('billing-code-filter-q')} />,
  activeOnlyFilter,
  <SelectInput
    key="sdt"
    source="sourceDivisionType"
    label="Source type"
    alwaysOn
    emptyText="Any"
    choices={SOURCE_TYPES.map((t) => ({ id: t, name: sourceTypeLabel(t) }))}
  />,
  <SelectInput key="rt" source="requestType" label="Request type" alwaysOn emptyText="Any" choices={REQUEST_TYPES.map((t) => ({ id: t, name: enumLabel(t) }))} />,
];

/** /billing-codes (ITP admin, Insurance submenu): list with a create/edit modal; default sort code ascending. */
export function BillingCodeList() {
  return (
    <ModalRecordList
      title="Billing codes"
      filters={filters}
      sort={{ field: 'code', order: 'ASC' }}
      testId="billing-code"
      addLabel="Add billing code"
      dialog={BillingCodeDialog}
    >
      <TextField source="code" label="Code" />
      <TextField source="description" label="Description" />
      <FunctionField label="Source types" sortable={false} render={(r: Row) => r.sourceDivisionTypes.map(sourceTypeLabel).join(', ')} />
      <FunctionField label="Request types" sortable={false} render={(r: Row) => r.requestTypes.map(enumLabel).join(', ')} />
      <ActiveChipField source="isActive" label="Status" />
    </ModalRecordList>
  );
}
