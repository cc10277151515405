/**
 * The STOMP endpoint of the hostile upstream (hostile-upstream.ts): polite where the mode says
 * nothing about STOMP, and one way of misbehaving per STOMP mode.
 */
import { serializeFrame, StompParser, type OutgoingFrame, type StompFrame } from '@racedata/core';
import type { WebSocket } from 'ws';

export type StompMode =
  | 'polite'
  /** CONNECTED, RECEIPT for SUBSCRIBE, but DISCONNECT's receipt never comes and the socket never closes. */
  | 'no-disconnect-receipt'
  /** CONNECTED, then bytes that are no frame, without end. */
  | 'garbage'
  /** CONNECTED whose one header is 30 MB, in one WebSocket message. */
  | 'huge-header'
  /** The same 30 MB header, sent as 1 MB WebSocket messages. */
  | 'huge-header-split'
  /** CONNECTED with 500,000 headers. */
  | 'many-headers';

export interface StompSeen {
  connects: number;
  subscribes: number;
  disconnects: number;
}

const frame = (f: OutgoingFrame) => serializeFrame(f, '1.2');

/** One STOMP session on `ws`; `messages` are the MESSAGE bodies sent once subscribed. */
export function serveStomp(
  ws: WebSocket,
  mode: StompMode,
  seen: StompSeen,
  messages: readonly string[],
): void {
  const timers: NodeJS.Timeout[] = [];
  ws.once('close', () => timers.forEach((t) => clearInterval(t)));
  const send = (data: string | Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(data);
  };
  const parser = new StompParser({
    onFrame: (f: StompFrame) => {
      if (f.command === 'CONNECT' || f.command === 'STOMP') {
        seen.connects++;
        connected();
      } else if (f.command === 'SUBSCRIBE') {
        seen.subscribes++;
        send(frame({ command: 'RECEIPT', headers: [['receipt-id', f.headers.receipt ?? '']] }));
        messages.forEach((body, i) =>
          send(
            frame({
              command: 'MESSAGE',
              headers: [
                ['subscription', f.headers.id ?? ''],
                ['message-id', `m${i}`],
                ['destination', f.headers.destination ?? ''],
                ['content-type', 'application/json'],
              ],
              body,
            }),
          ),
        );
      } else if (f.command === 'DISCONNECT') {
        seen.disconnects++;
        if (mode === 'no-disconnect-receipt') {
          // Reads nothing more, so neither a receipt nor an answer to the close frame ever comes:
          // the socket stays open until the client cuts it. (ws has no public way to do this.)
          (ws as unknown as { _socket: { pause(): void } })._socket.pause();
          return;
        }
        send(frame({ command: 'RECEIPT', headers: [['receipt-id', f.headers.receipt ?? '']] }));
      }
    },
  });
  ws.on('message', (data: Buffer) => {
    try {
      parser.push(data);
    } catch {
      ws.terminate();
    }
  });
  const connected = () => {
    const plain = frame({
      command: 'CONNECTED',
      headers: [
        ['version', '1.2'],
        ['heart-beat', '0,0'],
      ],
    });
    switch (mode) {
      case 'garbage':
        send(plain);
        timers.push(setInterval(() => send(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x7f])), 20));
        return;
      case 'huge-header': {
        send(`CONNECTED\nversion:1.2\nx-big:${'a'.repeat(30 * 1024 * 1024)}\n\n\0`);
        return;
      }
      case 'huge-header-split': {
        send('CONNECTED\nversion:1.2\nx-big:');
        const chunk = 'a'.repeat(1024 * 1024);
        for (let i = 0; i < 30; i++) send(chunk);
        send('\n\n\0');
        return;
      }
      case 'many-headers':
        send(`CONNECTED\nversion:1.2\n${'h:v\n'.repeat(500_000)}\n\0`);
        return;
      default:
        send(plain);
    }
  };
}
