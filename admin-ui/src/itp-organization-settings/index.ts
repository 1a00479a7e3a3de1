export { ItpOrganizationSettingsPage } from './ItpOrganizationSettingsPage';
