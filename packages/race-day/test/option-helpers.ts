import { isSimError } from '@racedata/core';

export * from '@racedata/race-day';

export const isSimErrorOf = (err: unknown, code: string): boolean => isSimError(err) && err.code === code;
