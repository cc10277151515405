/** The worker side of harness/processes.ts forkWorker: commands in, replies out, over IPC. */
export type Handlers = Record<string, (args: never) => unknown>;

export function serveCommands(handlers: Handlers): void {
  const send = (message: unknown) => process.send?.(message);
  process.on('message', (m: { id: number; cmd: string; args: never }) => {
    const handler = handlers[m.cmd];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${m.cmd}`);
        return handler(m.args);
      })
      .then(
        (result) => send({ id: m.id, ok: true, result }),
        (err: unknown) => send({ id: m.id, ok: false, error: String((err as Error)?.stack ?? err) }),
      );
  });
  // The harness went away (done, crashed, Ctrl-C): never outlive it.
  process.on('disconnect', () => process.exit(0));
  send({ event: 'ready' });
}
