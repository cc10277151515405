export * from './http-lifecycle';
export * from './upgrade-router';
export * from './body-budget';
