// Compiled with `tsc --strict` in a project that installed racedata-sim, without testcontainers:
// the main entry's types stand on their own. Copied there by test/package-install.test.ts.
import { ControlClient, ControlError, startSimulators } from 'racedata-sim';

export async function firstEventId(): Promise<number> {
  const sims = await startSimulators({ legacy: false });
  try {
    const url: string = sims.jsonUrl;
    const client = new ControlClient(url);
    await client.health();
    const posted = await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
    // @ts-expect-error the legacy simulator was left out, so there is no client for it
    await sims.legacy.health();
    return posted.delivery === 'durable' ? posted.event.eventId : 0;
  } catch (error) {
    if (error instanceof ControlError) throw new Error(`${error.status} ${error.code}`);
    throw error;
  } finally {
    await sims.close();
  }
}
