import { type ReplayHandle, type SimulatorSettings, type UserTable } from '@racedata/core';
import { replayState, type ControlHooks, type UserState } from '@racedata/control';
import type { ChannelBus } from './channel-bus';
import { seedRequest } from './seed/seed-events';
import type { EventStream } from './ws/event-stream';

export interface JsonControlDeps {
  bus: ChannelBus;
  stream: EventStream;
  users: UserTable;
  replay: ReplayHandle;
  settings: Pick<SimulatorSettings, 'seedMaxBodyBytes'>;
}

/** The JSON simulator's part of /_sim/state, /_sim/reset and /_sim/events (bulk seeding). */
export function jsonControlHooks({ bus, stream, users, replay, settings }: JsonControlDeps): ControlHooks {
  return {
    state: () => {
      const polls = bus.polls.countByUser();
      const perUser: Record<string, UserState> = {};
      for (const user of users.users) {
        perUser[user.key] = {
          sockets: stream.sessionsByUser.get(user.key) ?? 0,
          heldPolls: polls.get(user.key) ?? 0,
          queueDepth: 0,
          unconfirmed: 0,
        };
      }
      const { store } = bus;
      return {
        users: perUser,
        store: { events: store.size, bytes: store.bytesHeld, lastEventId: store.lastEventId },
        replay: replayState(replay),
      };
    },
    reset: (request) => {
      const events = request.events ? bus.store.clear(request.eventIds === 'continue') : 0;
      // After the store is cleared: a poll answered now must not be handed old events.
      const heldPolls = request.events ? bus.polls.releaseAll() : 0;
      const sockets = request.closeSockets ? stream.closeAll() : 0;
      return { events, heldPolls, sockets };
    },
    seedEvents: async (req) => ({ ...(await seedRequest(bus, req, settings.seedMaxBodyBytes)) }),
  };
}
