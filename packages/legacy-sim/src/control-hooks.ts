import { type ReplayHandle, type UserTable } from '@racedata/core';
import { replayState, type ControlHooks, type UserState } from '@racedata/control';
import type { LegacyQueues } from './queue/legacy-queues';
import type { StompEndpoint } from './stomp/stomp-endpoint';

export interface LegacyControlDeps {
  queues: LegacyQueues;
  stomp: StompEndpoint;
  users: UserTable;
  replay: ReplayHandle;
}

/** The legacy simulator's part of /_sim/state and /_sim/reset. */
export function legacyControlHooks({ queues, stomp, users, replay }: LegacyControlDeps): ControlHooks {
  return {
    state: () => {
      const queued = queues.usersState();
      const perUser: Record<string, UserState> = {};
      for (const user of users.users) {
        perUser[user.key] = {
          sockets: stomp.sessionsByUser.get(user.key) ?? 0,
          heldPolls: queued.get(user.key)?.waiting ?? 0,
          queueDepth: queued.get(user.key)?.depth ?? 0,
          unconfirmed: queued.get(user.key)?.unconfirmed ?? 0,
        };
      }
      return {
        users: perUser,
        queues: { messages: queues.totalDepth, bytes: queues.queuedBytes },
        replay: replayState(replay),
      };
    },
    reset: (request) => {
      const cleared = request.queues ? queues.clear() : { messages: 0, polls: 0 };
      const sockets = request.closeSockets ? stomp.closeAll() : 0;
      return { queuedMessages: cleared.messages, heldPolls: cleared.polls, sockets };
    },
  };
}
