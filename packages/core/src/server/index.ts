export * from './http-lifecycle';
export * from './upgrade-router';
