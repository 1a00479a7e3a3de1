import { Create } from 'react-admin';
import { normalizeInput } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { useSavedThen } from '../common/RecordForm';
import { FacilityTabs, SaveFacilityFirstTab } from './FacilityTabs';
import { FacilityForm } from './FacilityForm';
import { facilityTabsFor } from './facilityTabVisibility';
import { toFacilityPayload } from './facilityPayload';

export function FacilityCreate() {
  const session = useSession();
  const saved = useSavedThen('Facility created', 'edit', 'facilities');
  return (
    <Create
      title=" "
      component="div"
      mutationMode="pessimistic"
      transform={(values: any) => normalizeInput(toFacilityPayload(values))}
      mutationOptions={saved}
    >
      <PageTitle title="New facility" />
      <FacilityTabs
        basePath="/facilities/create"
        tabs={facilityTabsFor(session, true)}
        render={(tab) => (tab.key === 'general' ? <FacilityForm isNew /> : <SaveFacilityFirstTab label={tab.label} />)}
      />
    </Create>
  );
}
