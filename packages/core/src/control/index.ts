export * from './offset-clock';
export * from './journal';
export * from './control-params';
export * from './control-plane';
export * from './metrics';
export * from './faults';
export * from './fault-params';
