// Certify a client: the simulator drives a consumer through the ways production misbehaves.
export * from './types';
