export * from './enums';
export * from './transitions';
export * from './schemas';
export * from './requests';
export * from './format';
export * from './queues';
export * from './past-cases';
export * from './dashboards';
