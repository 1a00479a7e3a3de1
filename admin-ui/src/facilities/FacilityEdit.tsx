import { useEffect, useState } from 'react';
import { Edit, useNotify, useRecordContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import { normalizeInput } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { blockedActionDialog } from '../common/blockedAction';
import { InfoDialog, type InfoDialogContent } from '../common/InfoDialog';
import { isCodedError } from '../data/codedError';
import { setLastVisited } from '../common/listPersistence';
import { ActiveRecordTitle } from '../common/ReferenceList';
import { DivisionsTab } from './divisions/DivisionsTab';
import { CredentialedProvidersTab, EvaluationFormsTab, PreferredFacilitiesTab, RestrictionsTab } from './tabs';
import { IpAllowListForm } from './tabs/ip-allow-list';
import { SsoSettingsForm } from './tabs/sso';
import { FacilityTabs } from './FacilityTabs';
import { FacilityForm } from './FacilityForm';
import { facilityTabsFor } from './facilityTabVisibility';
import { toFacilityPayload } from './facilityPayload';
import type { FacilityRecord } from './facilityTypes';

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
        if (tab.key === 'credentialed-providers') return <CredentialedProvidersTab facilityId={record.id} />;
        if (tab.key === 'preferences') return <PreferredFacilitiesTab facilityId={record.id} />;
        if (tab.key === 'evaluation-forms') return <EvaluationFormsTab facilityId={record.id} />;
        if (tab.key === 'restrictions') return <RestrictionsTab facilityId={record.id} />;
        if (tab.key === 'ipWhiteList') return <IpAllowListForm facilityId={record.id} />;
        if (tab.key === 'external-login-provider-settings') return <SsoSettingsForm facilityId={record.id} />;
        return null;
      }}
    />
  );
}

export function FacilityEdit() {
  const { id } = useParams();
  const notify = useNotify();
  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
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
      mutationOptions={{
        onSuccess: () => notify('Facility updated', { type: 'success' }),
        onError: (error: unknown) => {
          const dialog = blockedActionDialog(error);
          if (dialog) return setBlocked(dialog);
          // Field errors (INV, INV.NOT.UNIQ) are shown on the fields by the form itself.
          if (isCodedError(error) && error.fields.length > 0) return;
          notify((error as Error).message, { type: 'error' });
        },
      }}
    >
      <ActiveRecordTitle />
      <FacilityEditTabs />
      <InfoDialog content={blocked} onClose={() => setBlocked(null)} />
    </Edit>
  );
}
