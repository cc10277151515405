import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { CertifiedUser } from './certify-simulator';

/** The paths a client authenticates on: the production one, and legacy's shortened Basic one. */
const AUTHENTICATE = /^\/(customerapi\/authenticate\/subscription|authenticate)\/?$/i;

/**
 * Whose traffic a request or an upgrade is: the certified client's, or another process's
 * (`foreign`), which is reported apart and never graded.
 *
 * A client started by certify owns the port: everything is its own. With --attach anyone may
 * reach the port (a container, a second client, a test suite running beside it), so a request is
 * the client's only when it is tied to what certify gave the client: an authentication with the
 * run's fresh secret (answered 200), a token the simulator issued in this run to the certified
 * user (or its fixed token), Basic credentials with the run's key and secret, or a connection
 * that already carried one of these (keep-alive). An event-stream upgrade carries no credential
 * (the token is its first message), so it is the client's when it comes from an address the
 * client's own traffic came from.
 */
export class ClientAttribution {
  private readonly tokens = new Set<string>();
  private readonly sockets = new WeakSet<Socket>();
  private readonly addresses = new Set<string>();

  constructor(
    /** --attach: attribute by credentials; otherwise the launched client owns everything. */
    readonly attached: boolean,
    private readonly user: CertifiedUser,
  ) {
    this.tokens.add(user.fixedToken);
  }

  /** Whether an answered (or abandoned) request is the client's; learns the token an authentication issued. */
  request(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const issued = issuedToken(res);
    if (res.statusCode === 200 && issued !== undefined && AUTHENTICATE.test(path) && req.method === 'POST') {
      // Only the fresh secret (or the run's key and secret as Basic) is answered 200 here.
      this.tokens.add(issued);
      return this.mine(req, true);
    }
    return this.mine(req, this.credentialIsClients(req));
  }

  /** Whether an upgrade (event stream, STOMP) is the client's. */
  upgrade(req: IncomingMessage): boolean {
    const credential = this.credentialIsClients(req);
    if (credential !== undefined) return this.mine(req, credential);
    const address = req.socket.remoteAddress;
    return this.mine(req, address !== undefined && this.addresses.has(address) ? true : undefined);
  }

  /** True (and remembered) when the request is the client's: by `verdict`, else by its connection. */
  private mine(req: IncomingMessage, verdict: boolean | undefined): boolean {
    if (!this.attached) return true;
    const socket = req.socket;
    const yes = verdict ?? this.sockets.has(socket);
    if (yes) {
      this.sockets.add(socket);
      if (socket.remoteAddress !== undefined) this.addresses.add(socket.remoteAddress);
    }
    return yes;
  }

  /** True for the client's credential, false for another one, undefined when there is none. */
  private credentialIsClients(req: IncomingMessage): boolean | undefined {
    const header = req.headers.authorization?.trim();
    if (header === undefined || header === '') return undefined;
    const [scheme = '', value = ''] = header.split(/\s+/, 2);
    if (scheme.toLowerCase() === 'bearer') return this.tokens.has(value);
    if (scheme.toLowerCase() === 'basic') {
      return Buffer.from(value, 'base64').toString('utf8') === `${this.user.key}:${this.user.secret}`;
    }
    return false;
  }
}

/** The token an authentication answered with (`authorization: Bearer <token>`), if any. */
function issuedToken(res: ServerResponse): string | undefined {
  const header = res.getHeader('authorization');
  const text = Array.isArray(header) ? header[0] : header === undefined ? undefined : String(header);
  return /^Bearer\s+(\S+)$/i.exec(text ?? '')?.[1];
}
