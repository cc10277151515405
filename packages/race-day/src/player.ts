/**
 * What a simulator needs from this package before any race day plays: the day it plays
 * (RaceDay), its player, and the light helpers their routes and banners use at start. Every
 * simulator start loads this, with or without a day; the rest of the package (the generator,
 * timelines, actions, views and schemas: most of its code) loads with `raceDayLibrary()`, when a
 * day is first generated or a race-day route first answers. index.ts is the whole package.
 */
export * from './errors';
export * from './model/options';
export * from './time/stockholm';
export * from './timeline/messages';
export * from './derive/race-times';
export * from './actions/moments';
export * from './render/json-event';
export * from './render/legacy-xml';
export * from './play/race-day';
export * from './play/day-player';

let library: typeof import('./index') | undefined;
/** The whole package, loaded on first call. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const raceDayLibrary = () => (library ??= require('./index') as typeof import('./index'));
