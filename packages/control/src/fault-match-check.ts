import { invalid } from './body-checks';
import type { FaultRoutes } from './fault-routes';
import type { FaultMatch } from './wire';

/**
 * Refuses a match no request could ever meet, rather than accepting a rule that never fires.
 * A rule's `user` is read from the request's bearer token, and an authentication request carries
 * a key and secret instead (in its body, where the rule is applied before the body is read), so
 * a rule naming a user can never fire on authentication.
 */
export function checkMatchCanFire(match: FaultMatch, routes: FaultRoutes): void {
  const exactPath = match.path !== undefined && !match.path.endsWith('*') ? match.path : undefined;
  const pathTransport = exactPath === undefined ? undefined : routes.httpRouteOf(exactPath).transport;
  if (match.transport !== undefined && exactPath !== undefined && pathTransport !== match.transport) {
    throw invalid(
      `"match.path" ${exactPath.slice(0, 64)} is not a path of the "${match.transport}" transport; the rule could never fire`,
    );
  }
  if (match.user !== undefined && routes.isTokenless(match.transport ?? pathTransport)) {
    throw invalid(
      '"match.user" cannot match authentication: an authenticate request names its user by key and secret, not by a token; drop "user" to fault every authentication',
    );
  }
}
