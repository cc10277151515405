import type { Logger } from '@racedata/core';
import { closeAll, RawStomp, startSim, waitFor } from './support';

afterEach(closeAll);

type Line = Record<string, unknown> & { msg?: string };

/** A logger that keeps LOG_REQUESTS' session lines: what `racedata-sim certify` reads. */
function sessionLines(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const info = (obj: object | string, msg?: string) => {
    if (typeof obj === 'object' && msg?.startsWith('session')) lines.push({ ...obj, msg });
  };
  const ignore = () => undefined;
  const logger: Logger = { debug: ignore, info, warn: ignore, error: ignore, child: () => logger };
  return { logger, lines };
}

describe('STOMP session: LOG_REQUESTS lines', () => {
  it('logs the version and heart-beats each CONNECT negotiated, between open and close', async () => {
    const { logger, lines } = sessionLines();
    const run = await startSim(
      { logRequests: true },
      { logger, stomp: { heartBeat: { send: 1000, receive: 1000 } } },
    );
    // The client beats every 2.5 s and wants none: the server expects 2500 and sends nothing.
    const beating = await RawStomp.connect(run.ws(), 'accept-version:1.2\nheart-beat:2500,0');
    // STOMP 1.0 has no heart-beats, whatever the header offers.
    const old = await RawStomp.connect(run.ws(), 'accept-version:1.0\nheart-beat:500,500');
    beating.close();
    old.close();
    const closes = () => lines.filter((l) => l.msg === 'session closed').length;
    await waitFor(() => closes() === 2, 'both sessions logged closed');
    expect(lines.filter((l) => l.msg === 'session connected')).toEqual([
      {
        msg: 'session connected',
        user: 'testuser',
        transport: 'stomp',
        version: '1.2',
        sendEveryMs: 0,
        expectEveryMs: 2500,
      },
      {
        msg: 'session connected',
        user: 'testuser',
        transport: 'stomp',
        version: '1.0',
        sendEveryMs: 0,
        expectEveryMs: 0,
      },
    ]);
    expect(lines.map((l) => l.msg)).toEqual([
      'session open',
      'session connected',
      'session open',
      'session connected',
      'session closed',
      'session closed',
    ]);
  });

  it('logs no connected line for a session that never sends CONNECT', async () => {
    const { logger, lines } = sessionLines();
    const run = await startSim({ logRequests: true }, { logger });
    const idle = new RawStomp(run.ws());
    await idle.opened;
    idle.close();
    await waitFor(() => lines.length === 2, 'the session logged closed');
    expect(lines.map((l) => l.msg)).toEqual(['session open', 'session closed']);
  });
});
