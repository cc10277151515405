import type { SandboxUser } from './control-types';
import { ControlError } from './errors';

/**
 * A sandbox made by ControlClient.sandbox(): an isolated simulator served under `url`. Point the
 * code under test at `url` with one of `users`' tokens; `control` is a ControlClient bound to the
 * sandbox, so reset, journal, faults and clock act on it alone. Public as `Sandbox`
 * (control-client.ts), whose default client is ControlClient; this module knows only what a
 * sandbox needs of its client, so the arrow between the two points one way.
 */
export interface SandboxOf<C extends SandboxControl> {
  readonly id: string;
  /** The parent's base URL plus the sandbox's base path; every path works under it. */
  readonly url: string;
  readonly basePath: string;
  readonly users: readonly SandboxUser[];
  /** Of the parent's kind: a JSON sandbox's can post, a legacy sandbox's inject. */
  readonly control: C;
  /** Frees the sandbox (DELETE /_sim/sandboxes/{id}); safe to call more than once. */
  close(): Promise<void>;
}

/** What a sandbox needs of the client bound to it. */
export interface SandboxControl {
  readonly baseUrl: string;
}

export function sandboxHandle<C extends SandboxControl>(
  info: { id: string; basePath: string; users: SandboxUser[] },
  control: C,
  remove: () => Promise<void>,
): SandboxOf<C> {
  let closing: Promise<void> | undefined;
  return {
    id: info.id,
    url: control.baseUrl,
    basePath: info.basePath,
    users: info.users,
    control,
    close: () => {
      // A sandbox left idle is deleted by the simulator itself (SANDBOX_IDLE_MS): already free.
      closing ??= remove().catch((err: unknown) => {
        if (err instanceof ControlError && err.status === 404) return;
        closing = undefined;
        throw err;
      });
      return closing;
    },
  };
}
