export * from './http-lifecycle';
export * from './upgrade-router';
export * from './body-budget';
export * from './ws-constants';
export * from './ws-send';
export * from './ws-frame';
export * from './pending-io';
export * from './peer-reset';
