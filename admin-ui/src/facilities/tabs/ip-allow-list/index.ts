export { IpAllowListForm } from './IpAllowListForm';
