export * from './common';
export * from './facility';
export * from './claims';
export * from './auth';
export * from './users';
export * from './reference';
export * from './audit-log';
