export * from './common';
export * from './facility';
export * from './claims';
export * from './auth';
