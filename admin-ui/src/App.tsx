import { useMemo } from 'react';
import { CssBaseline } from '@mui/material';
import {
  AdminContext,
  AuthCallback,
  AuthenticationError,
  CoreAdminUI,
  CustomRoutes,
  Error as ErrorPage,
  LoadingPage,
  Resource,
  defaultI18nProvider,
  localStorageStore,
} from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { authProvider } from './auth/authProvider';
import { changePasswordAllowed, demoToolsAllowed, navigationAllows } from './auth/routeGates';
import { SessionContext, type Session } from './auth/session';
import { Gate } from './common/Gate';
import { RA_STORE_APP_KEY } from './common/listPersistence';
import { createDataProvider } from './data/dataProvider';
import evaluationForms from './evaluation-forms';
import { evaluationScreenAllowed } from './evaluations/access';
import facilities from './facilities';
import billingCodes from './billing-codes';
import groups from './groups';
import patientTags from './patient-tags';
import payers from './payers';
import users, { UnlockUsersPage, UserInvite, withUsers } from './users';
import { AppLayout } from './layout/AppLayout';
import { AppNotification } from './notifications/AppNotification';
import { ComingSoonPage } from './pages/ComingSoonPage';
import { DashboardPage } from './pages/dashboard/DashboardPage';
import { AccessDeniedPage } from './pages/errors/AccessDeniedPage';
import { NotFoundPage } from './pages/errors/NotFoundPage';
import { theme } from './theme';
import { lazyPage } from './common/lazyPage';

// Every page but the dashboard (where a sign-in lands) is fetched when it first opens.
const AuditLogList = lazyPage(() => import('./activity/AuditLogList').then((m) => m.AuditLogList));
const AuditLogShow = lazyPage(() => import('./activity/AuditLogShow').then((m) => m.AuditLogShow));
const CaseCreatePage = lazyPage(() => import('./cases/create/CaseCreatePage').then((m) => m.CaseCreatePage));
const CaseSearchPage = lazyPage(() => import('./cases/create/CaseSearchPage').then((m) => m.CaseSearchPage));
const CaseSearchResultPage = lazyPage(() => import('./cases/create/CaseSearchResultPage').then((m) => m.CaseSearchResultPage));
const CaseList = lazyPage(() => import('./cases/list/CaseList').then((m) => m.CaseList));
const loadCasePage = () => import('./cases/page/CasePage');
const CasePage = lazyPage(() => loadCasePage().then((m) => m.CasePage));
const DemoToolsPage = lazyPage(() => import('./demo-tools/DemoToolsPage').then((m) => m.DemoToolsPage));
const MyProfilePage = lazyPage(() => import('./profile/MyProfilePage').then((m) => m.MyProfilePage));
const ChangePasswordPage = lazyPage(() => import('./profile/ChangePasswordPage').then((m) => m.ChangePasswordPage));
const FacilitySettingsPage = lazyPage(() => import('./facility-settings/FacilitySettingsPage').then((m) => m.FacilitySettingsPage));
const ItpOrganizationSettingsPage = lazyPage(() => import('./itp-organization-settings').then((m) => m.ItpOrganizationSettingsPage));
const loadCallLogPage = () => import('./placement/call-log/CallLogPage');
const CallLogPage = lazyPage(() => loadCallLogPage().then((m) => m.CallLogPage));
const AboutPage = lazyPage(() => import('./pages/static/StaticPages').then((m) => m.AboutPage));
const TermsPage = lazyPage(() => import('./pages/static/StaticPages').then((m) => m.TermsPage));
const InsurancePage = lazyPage(() => import('./cases/insurance/InsurancePage').then((m) => m.InsurancePage));
const PatientHistoryPage = lazyPage(() => import('./patients/PatientHistoryPage').then((m) => m.PatientHistoryPage));
const PatientList = lazyPage(() => import('./patients/PatientList').then((m) => m.PatientList));
const PatientMergePage = lazyPage(() => import('./patients/PatientMergePage').then((m) => m.PatientMergePage));
const QueuePage = lazyPage(() => import('./queues/QueuePage').then((m) => m.QueuePage));
const PastCasesPage = lazyPage(() => import('./past-cases/PastCasesPage').then((m) => m.PastCasesPage));
const EvaluationPage = lazyPage(() => import('./evaluations/EvaluationPage').then((m) => m.EvaluationPage));

/**
 * A full load of a case page or a call log fetches the page's code while the app signs in and loads
 * the user context, instead of after (the dashboard is in the entry chunk already).
 */
export function preloadPage(pathname: string): void {
  const load = /^\/cases\/\d+\/?$/.test(pathname) ? loadCasePage : /^\/call-log\/claim\/\d+\/?$/.test(pathname) ? loadCallLogPage : null;
  // A failure shows when the route renders the page (lazyPage loads it again).
  void load?.().catch(() => undefined);
}

/** Screens not built yet: still routed and gated like the real ones (navigation entry = gate). */
const PLACEHOLDERS: Array<{ path: string; gate: string; title: string }> = [
  { path: '/cases/*', gate: '/cases', title: 'Cases' },
];

const RedirectToDashboard = () => <Navigate to="/dashboard" replace />;

/**
 * react-admin on a browser router (real paths, deep links): the admin inside <BrowserRouter> uses
 * it instead of its default hash router. Rendered only once the session (user context) is loaded.
 *
 * This is react-admin's <Admin> spelled out, as its documentation shows: AdminContext, then what
 * AdminUI renders (CssBaseline around CoreAdminUI and the notification), with AdminUI's defaults
 * for the pages not replaced here. <Admin> imports AdminUI, and AdminUI's defaults put react-admin's
 * own layout (app bar, sidebar, menu, user menu, preferences inspector) and login page into the
 * entry chunk: code this app never renders (AppLayout, loginPage={false}).
 */
export function App({ session }: { session: Session }) {
  const dataProvider = useMemo(() => withUsers(createDataProvider()), []);
  const store = useMemo(() => localStorageStore('1', RA_STORE_APP_KEY), []);
  return (
    <SessionContext.Provider value={session}>
      <BrowserRouter>
        <AdminContext
          basename=""
          dataProvider={dataProvider}
          authProvider={authProvider}
          i18nProvider={defaultI18nProvider}
          store={store}
          theme={theme}
        >
          <CssBaseline enableColorScheme>
            <CoreAdminUI
              title={session.settings.productName}
              layout={AppLayout}
              dashboard={RedirectToDashboard}
              catchAll={NotFoundPage}
              accessDenied={AccessDeniedPage}
              authCallbackPage={AuthCallback}
              authenticationError={AuthenticationError}
              error={ErrorPage}
              loading={LoadingPage}
              requireAuth
              loginPage={false}
              disableTelemetry
            >
              <Resource name="facilities" {...facilities} />
              <Resource name="group-organizations" {...groups} />
              <Resource name="payers" {...payers} />
              <Resource name="billing-codes" {...billingCodes} />
              <Resource name="patient-tags" {...patientTags} />
              <Resource name="evaluation-forms" {...evaluationForms} />
              <Resource name="users" {...users}>
                <Route path="invite" element={<UserInvite />} />
              </Resource>
              <CustomRoutes>
                <Route path="/dashboard" element={<DashboardPage />} />
                <Route path="/activity" element={<Gate allow={(s) => navigationAllows(s, '/activity')}><AuditLogList /></Gate>} />
                <Route path="/activity/:id" element={<Gate allow={(s) => navigationAllows(s, '/activity')}><AuditLogShow /></Gate>} />
                <Route path="/new" element={<Navigate to="/me" replace />} />
                <Route path="/me" element={<MyProfilePage />} />
                <Route path="/me/:id" element={<MyProfilePage />} />
                <Route
                  path="/change-password"
                  element={
                    <Gate allow={changePasswordAllowed}>
                      <ChangePasswordPage />
                    </Gate>
                  }
                />
                <Route
                  path="/unlock-users"
                  element={
                    <Gate allow={(s) => navigationAllows(s, '/unlock-users')}>
                      <UnlockUsersPage />
                    </Gate>
                  }
                />
                <Route
                  path="/cases/:id/insurances"
                  element={
                    <Gate allow={(s) => s.ability.can('read', 'CaseInsurance')}>
                      <InsurancePage />
                    </Gate>
                  }
                />
                <Route path="/cases/past" element={<Gate allow={(s) => navigationAllows(s, '/cases/past')}><PastCasesPage /></Gate>} />
                <Route path="/past-cases" element={<Navigate to="/cases/past" replace />} />
                <Route path="/queue" element={<Gate allow={(s) => navigationAllows(s, '/queue')}><QueuePage /></Gate>} />
                <Route path="/patients" element={<Gate allow={(s) => s.ability.can('list', 'Patient')}><PatientList /></Gate>} />
                <Route path="/patients/merge" element={<Gate allow={(s) => s.ability.can('access', 'PatientMerge')}><PatientMergePage /></Gate>} />
                <Route
                  path="/patients/:id/history"
                  element={
                    <Gate allow={(s) => s.ability.can('access', 'PatientHistory')}>
                      <PatientHistoryPage />
                    </Gate>
                  }
                />
                <Route path="/terms-and-conditions" element={<TermsPage />} />
                <Route path="/about-us" element={<AboutPage />} />
                <Route
                  path="/demo-tools"
                  element={
                    <Gate allow={demoToolsAllowed}>
                      <DemoToolsPage signedIn />
                    </Gate>
                  }
                />
                <Route
                  path="/facility/settings/*"
                  element={
                    <Gate allow={(s) => navigationAllows(s, '/facility/settings')}>
                      <FacilitySettingsPage />
                    </Gate>
                  }
                />
                <Route
                  path="/itp-organization-settings/*"
                  element={
                    <Gate allow={(s) => navigationAllows(s, '/itp-organization-settings')}>
                      <ItpOrganizationSettingsPage />
                    </Gate>
                  }
                />
                <Route path="/cases" element={<Gate allow={(s) => s.ability.can('read', 'Case')}><CaseList /></Gate>} />
                <Route path="/cases/create" element={<Gate allow={(s) => s.ability.can('create', 'Case')}><CaseCreatePage /></Gate>} />
                <Route path="/cases/create/search" element={<Gate allow={(s) => s.ability.can('create', 'Case')}><CaseSearchPage /></Gate>} />
                <Route path="/cases/create/search/result" element={<Gate allow={(s) => s.ability.can('read', 'CaseSearchResult')}><CaseSearchResultPage /></Gate>} />
                <Route path="/cases/:id" element={<Gate allow={(s) => s.ability.can('read', 'Case')}><CasePage /></Gate>} />
                <Route path="/call-log/claim/:claimId" element={<Gate allow={(s) => s.ability.can('manage', 'Placement')}><CallLogPage /></Gate>} />
                <Route path="/cases/:id/requests/:requestId/evaluation" element={<Gate allow={evaluationScreenAllowed}><EvaluationPage /></Gate>} />
                {PLACEHOLDERS.map((p) => (
                  <Route
                    key={p.path}
                    path={p.path}
                    element={
                      <Gate allow={(s) => navigationAllows(s, p.gate)}>
                        <ComingSoonPage title={p.title} />
                      </Gate>
                    }
                  />
                ))}
              </CustomRoutes>
            </CoreAdminUI>
            <AppNotification />
          </CssBaseline>
        </AdminContext>
      </BrowserRouter>
    </SessionContext.Provider>
  );
}
