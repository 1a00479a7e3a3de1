import { useEffect } from 'react';
import { Chip } from '@mui/material';
import { Edit, useNotify, useRecordContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import { normalizeInput } from '@crisis/forms';
import { useSession } from '../auth/session';
import { setLastVisited } from '../common/listPersistence';
import { PageTitle } from '../common/PageTitle';
import { DivisionsTab } from './divisions/DivisionsTab';
import { ComingSoonTab, FacilityTabs } from './FacilityTabs';
import { FacilityForm } from './FacilityForm';
import { facilityTabsFor } from './facilityTabs';
import { toFacilityPayload } from './facilityPayload';
import type { FacilityRecord } from './facilityTypes';

function FacilityHeader() {
  const record = useRecordContext<FacilityRecord>();
  if (!record) return null;
  return (
    <PageTitle title={record.name}>
      <Chip size="small" label={record.isActive ? 'Active' : 'Inactive'} color={record.isActive ? 'success' : 'default'} />
    </PageTitle>
  );
}

function FacilityEditTabs() {
  const session = useSession();
  const record = useRecordContext<FacilityRecord>();
  if (!record) return null;
  return (
    <FacilityTabs
      basePath={`/facilities/${record.id}`}
      tabs={facilityTabsFor(session, false)}
      render={(tab) => {
        if (tab.key === 'general') return <FacilityForm isNew={false} />;
        if (tab.key === 'divisions') return <DivisionsTab facilityId={record.id} />;
        return <ComingSoonTab label={tab.label} />;
      }}
    />
  );
}

export function FacilityEdit() {
  const { id } = useParams();
  const notify = useNotify();
  useEffect(() => {
    if (id) setLastVisited('facilities', id);
  }, [id]);
  return (
    <Edit
      title=" "
      component="div"
      actions={false}
      mutationMode="pessimistic"
      redirect={false}
      transform={(values: any) => normalizeInput(toFacilityPayload(values))}
      mutationOptions={{ onSuccess: () => notify('Facility updated', { type: 'success' }) }}
    >
      <FacilityHeader />
      <FacilityEditTabs />
    </Edit>
  );
}
