import { Create, useNotify, useRedirect } from 'react-admin';
import { normalizeInput } from '@crisis/forms';
import { useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { ComingSoonTab, FacilityTabs } from './FacilityTabs';
import { FacilityForm } from './FacilityForm';
import { facilityTabsFor } from './facilityTabVisibility';
import { toFacilityPayload } from './facilityPayload';

export function FacilityCreate() {
  const session = useSession();
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title=" "
      component="div"
      mutationMode="pessimistic"
      transform={(values: any) => normalizeInput(toFacilityPayload(values))}
      mutationOptions={{
        onSuccess: (data: { id: number }) => {
          notify('Facility created', { type: 'success' });
          redirect('edit', 'facilities', data.id);
        },
      }}
    >
      <PageTitle title="New facility" />
      <FacilityTabs
        basePath="/facilities/create"
        tabs={facilityTabsFor(session, true)}
        render={(tab) => (tab.key === 'general' ? <FacilityForm isNew /> : <ComingSoonTab label={tab.label} />)}
      />
    </Create>
  );
}
