export { SsoSettingsForm } from './SsoSettingsForm';
